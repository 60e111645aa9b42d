package io.countersign.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import io.countersign.engine.tool.ToolPreview;
import io.countersign.engine.tool.ToolResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WriteFileToolTest {
    private final WriteFileTool tool = new WriteFileTool();

    @TempDir
    Path workspace;

    @Test
    void createsAFileAndTheFoldersOnTheWay() throws Exception {
        ToolResult result = Calls.execute(tool, workspace, "path", "docs/new/plan.md", "content", "# Plan\nstep 1\n");

        assertThat(result.failed()).isFalse();
        assertThat(result.content()).isEqualTo("created docs/new/plan.md (14 bytes)");
        assertThat(workspace.resolve("docs/new/plan.md")).hasContent("# Plan\nstep 1");
        assertThat(Files.readString(workspace.resolve("docs/new/plan.md"))).isEqualTo("# Plan\nstep 1\n");
    }

    @Test
    void replacesTheWholeContentOfAFile() throws Exception {
        Files.writeString(workspace.resolve("notes.txt"), "old and much longer content\n");

        ToolResult result = Calls.execute(tool, workspace, "path", "notes.txt", "content", "Grüße\n");

        assertThat(result.content()).isEqualTo("replaced notes.txt (8 bytes)");
        assertThat(Files.readString(workspace.resolve("notes.txt"))).isEqualTo("Grüße\n");
    }

    @Test
    void writesAnEmptyFile() throws Exception {
        ToolResult result = Calls.execute(tool, workspace, "path", "empty.txt", "content", "");

        assertThat(result.failed()).isFalse();
        assertThat(workspace.resolve("empty.txt")).isEmptyFile();
    }

    @Test
    void leavesNoTemporaryFileBehind() throws Exception {
        Calls.execute(tool, workspace, "path", "a.txt", "content", "one");
        Calls.execute(tool, workspace, "path", "a.txt", "content", "two");

        try (var entries = Files.list(workspace)) {
            assertThat(entries.map(path -> path.getFileName().toString())).containsExactly("a.txt");
        }
    }

    @Test
    void keepsThePermissionsOfTheFileItReplaces() throws Exception {
        Path script = workspace.resolve("run.sh");
        Files.writeString(script, "echo old\n");
        assumeTrue(script.getFileSystem().supportedFileAttributeViews().contains("posix"));
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-x---"));

        Calls.execute(tool, workspace, "path", "run.sh", "content", "echo new\n");

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(script))).isEqualTo("rwxr-x---");
    }

    @Test
    void writesThroughALinkToTheFileItLeadsTo() throws Exception {
        Files.createDirectories(workspace.resolve("real"));
        Files.writeString(workspace.resolve("real/config.txt"), "old\n");
        Files.createSymbolicLink(workspace.resolve("config.txt"), workspace.resolve("real/config.txt"));

        ToolResult result = Calls.execute(tool, workspace, "path", "config.txt", "content", "new\n");

        assertThat(result.content()).isEqualTo("replaced real/config.txt (4 bytes)");
        assertThat(Files.isSymbolicLink(workspace.resolve("config.txt"))).isTrue();
        assertThat(workspace.resolve("real/config.txt")).hasContent("new");
    }

    @Test
    void refusesAFolder() throws Exception {
        Files.createDirectories(workspace.resolve("docs"));

        ToolResult result = Calls.execute(tool, workspace, "path", "docs", "content", "x");

        assertThat(result.failed()).isTrue();
        assertThat(result.content()).isEqualTo("Error: docs is a folder; give the path of a file");
    }

    @Test
    void refusesTheWorkspaceFolderItself() throws Exception {
        ToolResult result = Calls.execute(tool, workspace, "path", ".", "content", "x");

        assertThat(result.failed()).isTrue();
        assertThat(result.content()).isEqualTo("Error: . is a folder; give the path of a file");
    }

    @Test
    void refusesWhenAFileStandsWhereAFolderIsNeeded() throws Exception {
        Files.writeString(workspace.resolve("docs"), "a file, not a folder");

        ToolResult result = Calls.execute(tool, workspace, "path", "docs/plan.md", "content", "x");

        assertThat(result.failed()).isTrue();
        assertThat(result.content())
                .isEqualTo("Error: cannot create the folders for docs/plan.md: a file is in the way");
        assertThat(workspace.resolve("docs")).hasContent("a file, not a folder");
    }

    @Test
    void refusesACallWithoutContent() throws Exception {
        ToolResult result = Calls.execute(tool, workspace, "path", "a.txt");

        assertThat(result.failed()).isTrue();
        assertThat(result.content()).isEqualTo("Error: missing required argument \"content\"");
        assertThat(workspace.resolve("a.txt")).doesNotExist();
    }

    @Test
    void previewIsTheDiffOfTheChange() throws Exception {
        Files.writeString(workspace.resolve("todo.txt"), "milk\neggs\nbread\n");

        ToolPreview preview = Calls.preview(tool, workspace, "path", "todo.txt", "content", "milk\nbutter\nbread\n");

        assertThat(preview.lines()).containsExactly(
                "--- a/todo.txt",
                "+++ b/todo.txt",
                "@@ -1,3 +1,3 @@",
                " milk",
                "-eggs",
                "+butter",
                " bread");
    }

    @Test
    void previewOfANewFileDiffsAgainstNothing() {
        ToolPreview preview = Calls.preview(tool, workspace, "path", "docs/new.txt", "content", "hello\nworld");

        assertThat(preview.lines()).containsExactly(
                "--- /dev/null",
                "+++ b/docs/new.txt",
                "@@ -0,0 +1,2 @@",
                "+hello",
                "+world",
                UnifiedDiff.NO_NEWLINE);
    }

    @Test
    void previewOfANewEmptyFileSaysSo() {
        ToolPreview preview = Calls.preview(tool, workspace, "path", "empty.txt", "content", "");

        assertThat(preview.lines()).containsExactly("create empty file empty.txt");
    }

    @Test
    void previewOfTheSameContentSaysNoChange() throws Exception {
        Files.writeString(workspace.resolve("same.txt"), "as before\n");

        ToolPreview preview = Calls.preview(tool, workspace, "path", "same.txt", "content", "as before\n");

        assertThat(preview.lines()).containsExactly("no change to same.txt");
    }

    @Test
    void previewChangesNothing() {
        Calls.preview(tool, workspace, "path", "docs/new.txt", "content", "hello\n");

        assertThat(workspace.resolve("docs")).doesNotExist();
    }

    @Test
    void previewIsTheSameWhenAskedAgain() throws Exception {
        Files.writeString(workspace.resolve("todo.txt"), "milk\n");

        assertThat(Calls.preview(tool, workspace, "path", "todo.txt", "content", "tea\n"))
                .isEqualTo(Calls.preview(tool, workspace, "path", "todo.txt", "content", "tea\n"));
    }

    @Test
    void previewOfALongDiffIsClippedToTwentyLines() {
        String content = IntStream.rangeClosed(1, 40).mapToObj(i -> "line " + i + "\n").collect(Collectors.joining());

        ToolPreview preview = Calls.preview(tool, workspace, "path", "long.txt", "content", content);

        assertThat(preview.lines()).hasSize(ToolPreview.MAX_LINES);
        assertThat(preview.lines().get(ToolPreview.MAX_LINES - 1)).isEqualTo("… 24 more lines");
    }

    @Test
    void previewOfReplacingABinaryFileSaysItCannotShowIt() throws Exception {
        Files.write(workspace.resolve("logo.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G', 0});

        ToolPreview preview = Calls.preview(tool, workspace, "path", "logo.png", "content", "text\n");

        assertThat(preview.lines()).containsExactly("replace logo.png with the new text; its current content"
                + " cannot be shown: logo.png is not UTF-8 text; it looks like a binary file");
    }

    @Test
    void previewOfARefusedCallSaysItWillFail() {
        ToolPreview preview = Calls.preview(tool, workspace, "path", "../escape.txt", "content", "x");

        assertThat(preview.lines())
                .containsExactly("this call will fail: path \"../escape.txt\" is outside the workspace folder");
    }
}
