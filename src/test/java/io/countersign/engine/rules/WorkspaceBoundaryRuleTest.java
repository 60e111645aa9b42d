package io.countersign.engine.rules;

import static io.countersign.engine.InvocationCalls.agent;
import static io.countersign.engine.InvocationCalls.arguments;
import static io.countersign.engine.InvocationCalls.call;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.call.InvocationVerdict;
import io.countersign.engine.call.ToolInvocationDecision;
import io.countersign.engine.call.ToolInvocationHistory;
import io.countersign.engine.invocation.InvocationRules;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class WorkspaceBoundaryRuleTest {
    private final WorkspaceBoundaryRule rule = new WorkspaceBoundaryRule();
    @TempDir
    Path root;
    private Path workspace;
    private Path outside;
    private AgentConfiguration agent;

    @BeforeEach
    void layOutAWorkspaceAndAFolderBesideIt() throws IOException {
        workspace = Files.createDirectories(root.resolve("release-notes"));
        Files.createDirectories(workspace.resolve("chapters"));
        Files.writeString(workspace.resolve("draft.md"), "draft");
        outside = Files.createDirectories(root.resolve("outside"));
        Files.createDirectories(outside.resolve("inner"));
        Files.writeString(outside.resolve("secret.txt"), "secret");
        agent = agent().withWorkspace(workspace.toString());
    }

    private ToolInvocationDecision decide(String tool, String path) {
        return rule.decide(call(tool, arguments("path", path), agent));
    }

    @Test
    void relativePathInsideIsAllowed() {
        assertThat(decide("fs_read", "draft.md").allowed()).isTrue();
    }

    @Test
    void pathBelowFoldersThatDoNotExistYetIsAllowed() {
        assertThat(decide("fs_write", "chapters/new/one.md").allowed()).isTrue();
    }

    @Test
    void workspaceItselfIsAllowed() {
        assertThat(decide("fs_list", ".").allowed()).isTrue();
    }

    @Test
    void absolutePathInsideIsAllowed() {
        assertThat(decide("fs_read", workspace.resolve("draft.md").toString()).allowed()).isTrue();
    }

    @Test
    void absolutePathOutsideIsRefusedOutsideWorkspace() {
        ToolInvocationDecision decision = decide("fs_read", outside.resolve("secret.txt").toString());

        assertThat(decision.reasonCode()).isEqualTo("outside_workspace");
    }

    @ParameterizedTest
    @ValueSource(strings = {"fs_list", "fs_read", "fs_write", "fs_delete"})
    void everyFileToolIsKeptInside(String tool) {
        assertThat(decide(tool, "../outside/secret.txt").reasonCode()).isEqualTo("outside_workspace");
    }

    @Test
    void dotDotThatStaysInsideIsAllowed() {
        assertThat(decide("fs_write", "chapters/../draft.md").allowed()).isTrue();
    }

    @Test
    void dotDotBelowAFolderThatDoesNotExistStillCountsOut() {
        assertThat(decide("fs_write", "new/../../outside/x.md").reasonCode()).isEqualTo("outside_workspace");
    }

    @Test
    void folderBesideTheWorkspaceWithTheSamePrefixIsOutside() throws IOException {
        Path sibling = Files.createDirectories(root.resolve("release-notes-old"));

        assertThat(decide("fs_read", sibling.resolve("a.md").toString()).reasonCode())
                .isEqualTo("outside_workspace");
    }

    @Test
    void symlinkPointingOutIsRefused() throws IOException {
        Files.createSymbolicLink(workspace.resolve("escape"), outside);

        assertThat(decide("fs_read", "escape/secret.txt").reasonCode()).isEqualTo("outside_workspace");
    }

    @Test
    void dotDotAfterALinkCountsFromWhereTheLinkLeads() throws IOException {
        Files.createSymbolicLink(workspace.resolve("deep"), outside.resolve("inner"));

        assertThat(decide("fs_read", "deep/../secret.txt").reasonCode()).isEqualTo("outside_workspace");
    }

    @Test
    void linkReachedAfterAFolderThatDoesNotExistIsFollowed() throws IOException {
        Files.createSymbolicLink(workspace.resolve("escape"), outside);

        assertThat(decide("fs_write", "new/../escape/x.md").reasonCode()).isEqualTo("outside_workspace");
    }

    @Test
    void danglingLinkPointingOutIsRefused() throws IOException {
        Files.createSymbolicLink(workspace.resolve("new.md"), outside.resolve("new.md"));

        assertThat(decide("fs_write", "new.md").reasonCode()).isEqualTo("outside_workspace");
    }

    @Test
    void relativeLinkPointingOutIsRefused() throws IOException {
        Files.createSymbolicLink(workspace.resolve("chapters/escape"), Path.of("../../outside"));

        assertThat(decide("fs_read", "chapters/escape/secret.txt").reasonCode()).isEqualTo("outside_workspace");
    }

    @Test
    void linkPointingInsideIsAllowed() throws IOException {
        Files.createSymbolicLink(workspace.resolve("latest"), workspace.resolve("chapters"));

        assertThat(decide("fs_write", "latest/one.md").allowed()).isTrue();
    }

    @Test
    void workspaceConfiguredThroughALinkKeepsItsFilesInside() throws IOException {
        Path link = Files.createSymbolicLink(root.resolve("current"), workspace);
        agent = agent().withWorkspace(link.toString());

        assertThat(decide("fs_read", workspace.resolve("draft.md").toString()).allowed()).isTrue();
    }

    @Test
    void linkLoopCannotBeJudged() throws IOException {
        Files.createSymbolicLink(workspace.resolve("a"), workspace.resolve("b"));
        Files.createSymbolicLink(workspace.resolve("b"), workspace.resolve("a"));

        assertThatThrownBy(() -> decide("fs_read", "a/x.md"))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("too many levels of symbolic links");
    }

    @Test
    void agentWithoutAWorkspaceIsRefusedNoWorkspace() {
        ToolInvocationDecision decision = rule.decide(call("fs_read", arguments("path", "draft.md"), agent()));

        assertThat(decision.reasonCode()).isEqualTo("no_workspace");
        assertThat(decision.explanation()).isEqualTo("Give this agent a workspace folder before it uses file tools.");
    }

    @Test
    void otherToolsAreAllowed() {
        assertThat(decide("web_fetch", "../outside/secret.txt").allowed()).isTrue();
    }

    @Test
    void missingPathIsRefusedInvalidPath() {
        assertThat(rule.decide(call("fs_read", arguments(), agent)).reasonCode()).isEqualTo("invalid_path");
    }

    @Test
    void pathThatIsNotAStringIsRefusedInvalidPath() {
        assertThat(rule.decide(call("fs_read", arguments().put("path", 7), agent)).reasonCode())
                .isEqualTo("invalid_path");
    }

    @Test
    void pathTheFileSystemCannotNameIsRefusedInvalidPath() {
        assertThat(decide("fs_write", "draft\0.md").reasonCode()).isEqualTo("invalid_path");
    }

    @Test
    void explanationNamesTheWorkspaceFolder() {
        assertThat(decide("fs_write", "../outside/x.md").explanation())
                .isEqualTo("Keep file access inside the workspace folder \"release-notes\".");
    }

    @Test
    void explanationIsInThePersonsLanguage() {
        ToolInvocationDecision decision = rule.decide(call("fs_write", arguments("path", "../outside/x.md"), agent,
                ToolInvocationHistory.emptyComplete(), Locale.GERMAN));

        assertThat(decision.explanation()).isEqualTo("Greifen Sie nur auf Dateien im Arbeitsordner „release-notes“ zu.");
    }

    @Test
    void languageWithoutTranslationGetsEnglishEvenWhereTheMachineSpeaksGerman() {
        Locale machine = Locale.getDefault();
        Locale.setDefault(Locale.GERMAN);
        try {
            ToolInvocationDecision decision = rule.decide(call("fs_write", arguments("path", "../outside/x.md"),
                    agent, ToolInvocationHistory.emptyComplete(), Locale.FRENCH));

            assertThat(decision.explanation()).startsWith("Keep file access");
        } finally {
            Locale.setDefault(machine);
        }
    }

    @Test
    void refusesBeforeTheApprovalCard() {
        InvocationVerdict verdict = InvocationRules.of(List.of(rule), List.of()).preApprovalPolicy()
                .evaluate(call("fs_delete", arguments("path", "../outside/secret.txt"), agent));

        assertThat(verdict.ruleIdentifier()).isEqualTo("workspace.boundary");
        assertThat(verdict.deliberateRefusal()).isTrue();
    }
}
