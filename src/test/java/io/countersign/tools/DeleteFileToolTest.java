package io.countersign.tools;

import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.engine.tool.ToolPreview;
import io.countersign.engine.tool.ToolResult;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeleteFileToolTest {
    private final DeleteFileTool tool = new DeleteFileTool();

    @TempDir
    Path workspace;

    @Test
    void deletesAFile() throws Exception {
        Files.createDirectories(workspace.resolve("docs"));
        Files.writeString(workspace.resolve("docs/old.txt"), "bye\n");

        ToolResult result = Calls.execute(tool, workspace, "path", "docs/old.txt");

        assertThat(result.failed()).isFalse();
        assertThat(result.content()).isEqualTo("deleted docs/old.txt");
        assertThat(workspace.resolve("docs/old.txt")).doesNotExist();
        assertThat(workspace.resolve("docs")).isDirectory();
    }

    @Test
    void deletesAnEmptyFolder() throws Exception {
        Files.createDirectories(workspace.resolve("empty"));

        ToolResult result = Calls.execute(tool, workspace, "path", "empty");

        assertThat(result.content()).isEqualTo("deleted empty folder empty");
        assertThat(workspace.resolve("empty")).doesNotExist();
    }

    @Test
    void refusesAFolderThatIsNotEmpty() throws Exception {
        Files.createDirectories(workspace.resolve("docs"));
        Files.writeString(workspace.resolve("docs/keep.txt"), "keep\n");

        ToolResult result = Calls.execute(tool, workspace, "path", "docs");

        assertThat(result.failed()).isTrue();
        assertThat(result.content()).isEqualTo("Error: docs is a folder that is not empty; delete its entries first");
        assertThat(workspace.resolve("docs/keep.txt")).exists();
    }

    @Test
    void refusesAPathThatDoesNotExist() throws Exception {
        ToolResult result = Calls.execute(tool, workspace, "path", "missing.txt");

        assertThat(result.failed()).isTrue();
        assertThat(result.content()).isEqualTo("Error: missing.txt does not exist");
    }

    @Test
    void refusesTheWorkspaceFolderItself() throws Exception {
        ToolResult result = Calls.execute(tool, workspace, "path", "docs/..");

        assertThat(result.failed()).isTrue();
        assertThat(result.content()).isEqualTo("Error: the workspace folder itself cannot be deleted");
        assertThat(workspace).isDirectory();
    }

    @Test
    void deletesALinkAndNotWhatItLeadsTo(@TempDir Path elsewhere) throws Exception {
        Path target = Files.writeString(elsewhere.resolve("precious.txt"), "keep me\n");
        Files.createSymbolicLink(workspace.resolve("shortcut"), target);

        ToolResult result = Calls.execute(tool, workspace, "path", "shortcut");

        assertThat(result.content()).isEqualTo("deleted shortcut");
        assertThat(workspace.resolve("shortcut")).doesNotExist();
        assertThat(target).hasContent("keep me");
    }

    @Test
    void previewCountsTheLinesOfTheFile() throws Exception {
        Files.writeString(workspace.resolve("notes.txt"), "one\ntwo\nthree");

        ToolPreview preview = Calls.preview(tool, workspace, "path", "notes.txt");

        assertThat(preview.lines()).containsExactly("delete notes.txt (3 lines)");
    }

    @Test
    void previewOfABinaryFileGivesItsSize() throws Exception {
        Files.write(workspace.resolve("logo.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G', 0});

        ToolPreview preview = Calls.preview(tool, workspace, "path", "logo.png");

        assertThat(preview.lines()).containsExactly("delete logo.png (5 bytes, not text)");
    }

    @Test
    void previewOfAnEmptyFolderSaysSo() throws Exception {
        Files.createDirectories(workspace.resolve("empty"));

        ToolPreview preview = Calls.preview(tool, workspace, "path", "empty");

        assertThat(preview.lines()).containsExactly("delete empty folder empty");
    }

    @Test
    void previewOfALinkDoesNotReadWhatItLeadsTo(@TempDir Path elsewhere) throws Exception {
        Path target = Files.writeString(elsewhere.resolve("secret.txt"), "a\nb\n");
        Files.createSymbolicLink(workspace.resolve("shortcut"), target);

        ToolPreview preview = Calls.preview(tool, workspace, "path", "shortcut");

        assertThat(preview.lines()).containsExactly("delete link shortcut");
    }

    @Test
    void previewOfAFolderThatIsNotEmptySaysTheCallWillFail() throws Exception {
        Files.createDirectories(workspace.resolve("docs"));
        Files.writeString(workspace.resolve("docs/keep.txt"), "keep\n");

        ToolPreview preview = Calls.preview(tool, workspace, "path", "docs");

        assertThat(preview.lines())
                .containsExactly("this call will fail: docs is a folder that is not empty; delete its entries first");
    }

    @Test
    void previewDeletesNothing() throws Exception {
        Files.writeString(workspace.resolve("notes.txt"), "one\n");

        Calls.preview(tool, workspace, "path", "notes.txt");

        assertThat(workspace.resolve("notes.txt")).exists();
    }
}
