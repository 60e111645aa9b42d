package io.countersign.tools;

import static org.assertj.core.api.Assertions.assertThat;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.ToolResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every file tool keeps to the workspace folder, and says so with a failure result rather than an exception. */
class WorkspaceConfinementTest {
    @TempDir
    Path temp;
    Path workspace;
    Path outside;

    @BeforeEach
    void folders() throws IOException {
        workspace = Files.createDirectories(temp.resolve("workspace"));
        outside = Files.createDirectories(temp.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), "not for the model\n");
        Files.createDirectories(outside.resolve("folder"));
    }

    static Stream<Tool> fileTools() {
        return Stream.of(new ListFilesTool(), new ReadFileTool(), new WriteFileTool(), new DeleteFileTool());
    }

    static Stream<Tool> toolsThatNeedAPath() {
        return Stream.of(new ReadFileTool(), new WriteFileTool(), new DeleteFileTool());
    }

    /** The arguments each tool needs to act on the path; the listing tool is pointed at a folder. */
    private static ObjectNode callOn(Tool tool, String path) {
        String target = tool instanceof ListFilesTool ? path.replace("secret.txt", "folder") : path;
        return tool instanceof WriteFileTool
                ? Calls.arguments("path", target, "content", "overwritten\n")
                : Calls.arguments("path", target);
    }

    private void assertOutsideUntouched() throws IOException {
        assertThat(outside.resolve("secret.txt")).hasContent("not for the model");
        assertThat(outside.resolve("folder")).isDirectory();
    }

    @ParameterizedTest
    @MethodSource("fileTools")
    void refusesAPathThatClimbsOutWithDotDot(Tool tool) throws Exception {
        ToolResult result = Calls.execute(tool, workspace, callOn(tool, "../outside/secret.txt"));

        assertThat(result.failed()).isTrue();
        assertThat(result.content()).isEqualTo("Error: path \"../" + outside.getFileName()
                + "/" + (tool instanceof ListFilesTool ? "folder" : "secret.txt")
                + "\" is outside the workspace folder");
        assertOutsideUntouched();
    }

    @ParameterizedTest
    @MethodSource("fileTools")
    void refusesADotDotChainThatEndsOutside(Tool tool) throws Exception {
        ToolResult result = Calls.execute(tool, workspace, callOn(tool, "sub/../../workspace/../outside/secret.txt"));

        assertThat(result.failed()).isTrue();
        assertThat(result.content()).contains("is outside the workspace folder");
    }

    @ParameterizedTest
    @MethodSource("fileTools")
    void refusesAnAbsolutePathOutside(Tool tool) throws Exception {
        ToolResult result = Calls.execute(tool, workspace, callOn(tool, outside.resolve("secret.txt").toString()));

        assertThat(result.failed()).isTrue();
        assertThat(result.content()).contains("is outside the workspace folder");
        assertOutsideUntouched();
    }

    @ParameterizedTest
    @MethodSource("fileTools")
    void refusesAPathThatEscapesThroughALink(Tool tool) throws Exception {
        Files.createSymbolicLink(workspace.resolve("escape"), outside);

        ToolResult result = Calls.execute(tool, workspace, callOn(tool, "escape/secret.txt"));

        assertThat(result.failed()).isTrue();
        assertThat(result.content()).isEqualTo("Error: path \"escape/"
                + (tool instanceof ListFilesTool ? "folder" : "secret.txt")
                + "\" leads outside the workspace folder through a link");
        assertOutsideUntouched();
    }

    @ParameterizedTest
    @MethodSource("fileTools")
    void refusesAPathThatGoesThroughABrokenLink(Tool tool) throws Exception {
        Files.createSymbolicLink(workspace.resolve("dangling"), temp.resolve("nowhere"));

        ToolResult result = Calls.execute(tool, workspace, callOn(tool, "dangling/secret.txt"));

        assertThat(result.failed()).isTrue();
        assertThat(result.content()).contains("goes through a broken link");
        assertThat(temp.resolve("nowhere")).doesNotExist();
    }

    @ParameterizedTest
    @MethodSource("fileTools")
    void refusesAnAgentWithoutAWorkspace(Tool tool) throws Exception {
        ToolResult result = Calls.execute(tool, null, callOn(tool, "notes.txt"));

        assertThat(result.failed()).isTrue();
        assertThat(result.content()).isEqualTo("Error: this agent has no workspace folder");
    }

    @ParameterizedTest
    @MethodSource("fileTools")
    void refusesAWorkspaceFolderThatDoesNotExist(Tool tool) throws Exception {
        ToolResult result = Calls.execute(tool, temp.resolve("gone"), callOn(tool, "notes.txt"));

        assertThat(result.failed()).isTrue();
        assertThat(result.content()).isEqualTo("Error: this agent's workspace folder does not exist");
    }

    @ParameterizedTest
    @MethodSource("fileTools")
    void refusesAPathThatIsNotAString(Tool tool) throws Exception {
        ObjectNode arguments = callOn(tool, "x");
        arguments.put("path", 42);

        ToolResult result = Calls.execute(tool, workspace, arguments);

        assertThat(result.failed()).isTrue();
        assertThat(result.content()).isEqualTo("Error: argument \"path\" must be a string, got number");
    }

    @ParameterizedTest
    @MethodSource("fileTools")
    void refusesAnUnknownArgument(Tool tool) throws Exception {
        ObjectNode arguments = callOn(tool, "x");
        arguments.put("recursive", true);

        ToolResult result = Calls.execute(tool, workspace, arguments);

        assertThat(result.failed()).isTrue();
        assertThat(result.content()).startsWith("Error: unknown argument \"recursive\"; this tool takes path");
    }

    @ParameterizedTest
    @MethodSource("toolsThatNeedAPath")
    void refusesACallWithoutAPath(Tool tool) throws Exception {
        ObjectNode arguments = callOn(tool, "x");
        arguments.remove("path");

        ToolResult result = Calls.execute(tool, workspace, arguments);

        assertThat(result.failed()).isTrue();
        assertThat(result.content()).isEqualTo("Error: missing required argument \"path\"");
    }

    @ParameterizedTest
    @MethodSource("toolsThatNeedAPath")
    void refusesAnEmptyPath(Tool tool) throws Exception {
        ToolResult result = Calls.execute(tool, workspace, callOn(tool, " "));

        assertThat(result.failed()).isTrue();
        assertThat(result.content()).contains("path must not be empty");
    }

    @ParameterizedTest
    @MethodSource("fileTools")
    void acceptsADotDotThatStaysInside(Tool tool) throws Exception {
        Files.createDirectories(workspace.resolve("docs/folder"));
        Files.writeString(workspace.resolve("docs/secret.txt"), "inside\n");

        ToolResult result = Calls.execute(tool, workspace, callOn(tool, "other/../docs/secret.txt"));

        assertThat(result.failed()).as(result.content()).isFalse();
    }

    @ParameterizedTest
    @MethodSource("fileTools")
    void acceptsAnAbsolutePathInside(Tool tool) throws Exception {
        Files.createDirectories(workspace.resolve("docs/folder"));
        Files.writeString(workspace.resolve("docs/secret.txt"), "inside\n");
        String absolute = workspace.resolve("docs/secret.txt").toString();

        ToolResult result = Calls.execute(tool, workspace, callOn(tool, absolute));

        assertThat(result.failed()).as(result.content()).isFalse();
    }

    @ParameterizedTest
    @MethodSource("fileTools")
    void acceptsALinkThatStaysInside(Tool tool) throws Exception {
        Files.createDirectories(workspace.resolve("docs/folder"));
        Files.writeString(workspace.resolve("docs/secret.txt"), "inside\n");
        Files.createSymbolicLink(workspace.resolve("shortcut"), workspace.resolve("docs"));

        ToolResult result = Calls.execute(tool, workspace, callOn(tool, "shortcut/secret.txt"));

        assertThat(result.failed()).as(result.content()).isFalse();
    }

    @ParameterizedTest
    @MethodSource("fileTools")
    void acceptsAWorkspaceNamedThroughALink(Tool tool) throws Exception {
        Path alias = Files.createSymbolicLink(temp.resolve("alias"), workspace);
        Files.createDirectories(workspace.resolve("folder"));
        Files.writeString(workspace.resolve("secret.txt"), "inside\n");

        ToolResult result = Calls.execute(tool, alias, callOn(tool, "secret.txt"));

        assertThat(result.failed()).as(result.content()).isFalse();
    }
}
