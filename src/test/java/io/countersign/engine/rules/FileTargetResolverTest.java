package io.countersign.engine.rules;

import static io.countersign.engine.InvocationCalls.agent;
import static io.countersign.engine.InvocationCalls.arguments;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.engine.call.ToolInvocationTarget;
import io.countersign.engine.agent.AgentConfiguration;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileTargetResolverTest {
    private final FileTargetResolver resolver = new FileTargetResolver();
    @TempDir
    Path root;
    private Path workspace;
    private AgentConfiguration agent;

    @BeforeEach
    void layOutAWorkspace() throws IOException {
        workspace = Files.createDirectories(root.resolve("release-notes"));
        Files.createDirectories(workspace.resolve("chapters"));
        agent = agent().withWorkspace(workspace.toString());
    }

    private ToolInvocationTarget resolve(String tool, String path) {
        return resolver.resolve(tool, arguments("path", path), agent);
    }

    @Test
    void fileIsNamedByItsPathInTheWorkspace() {
        assertThat(resolve("fs_write", "chapters/one.md")).isEqualTo(new ToolInvocationTarget("file", "chapters/one.md"));
    }

    @Test
    void dotDotIsResolvedAway() {
        assertThat(resolve("fs_read", "chapters/../draft.md").identifier()).isEqualTo("draft.md");
    }

    @Test
    void absolutePathInsideNamesTheSameTarget() {
        assertThat(resolve("fs_read", workspace.resolve("chapters/one.md").toString()))
                .isEqualTo(resolve("fs_read", "chapters/one.md"));
    }

    @Test
    void workspaceItselfIsNamedDot() {
        assertThat(resolve("fs_list", "").identifier()).isEqualTo(".");
    }

    @Test
    void linkInsideIsNamedWhereItLeads() throws IOException {
        Files.createSymbolicLink(workspace.resolve("latest"), workspace.resolve("chapters"));

        assertThat(resolve("fs_write", "latest/one.md").identifier()).isEqualTo("chapters/one.md");
    }

    @Test
    void pathOutsideHasNoTarget() {
        assertThat(resolve("fs_read", "../elsewhere/secret.txt")).isNull();
    }

    @Test
    void otherToolsHaveNoTarget() {
        assertThat(resolve("web_fetch", "chapters/one.md")).isNull();
    }

    @Test
    void agentWithoutAWorkspaceHasNoTarget() {
        assertThat(resolver.resolve("fs_read", arguments("path", "chapters/one.md"), agent())).isNull();
    }
}
