package io.countersign.tools;

import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.engine.tool.ToolResult;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ListFilesToolTest {
    private final ListFilesTool tool = new ListFilesTool();

    @TempDir
    Path workspace;

    @Test
    void listsEntriesSortedByNameWithKindAndSize() throws Exception {
        Files.createDirectories(workspace.resolve("src/main"));
        Files.writeString(workspace.resolve("src/README.md"), "hello");
        Files.writeString(workspace.resolve("src/build.txt"), "");

        ToolResult result = Calls.execute(tool, workspace, "path", "src");

        assertThat(result.failed()).isFalse();
        assertThat(result.content()).isEqualTo("""
                src (3 entries):
                README.md\tfile\t5 bytes
                build.txt\tfile\t0 bytes
                main\tdir""");
    }

    @Test
    void listsTheWorkspaceFolderWithoutAPath() throws Exception {
        Files.writeString(workspace.resolve("notes.txt"), "n");

        ToolResult result = Calls.execute(tool, workspace);

        assertThat(result.content()).isEqualTo(". (1 entry):\nnotes.txt\tfile\t1 byte");
    }

    @Test
    void saysSoWhenAFolderIsEmpty() throws Exception {
        Files.createDirectories(workspace.resolve("empty"));

        ToolResult result = Calls.execute(tool, workspace, "path", "empty");

        assertThat(result.failed()).isFalse();
        assertThat(result.content()).isEqualTo("empty is empty");
    }

    @Test
    void reportsALinkWithoutFollowingIt(@TempDir Path elsewhere) throws Exception {
        Files.writeString(elsewhere.resolve("big.bin"), "0123456789");
        Files.createSymbolicLink(workspace.resolve("pointer"), elsewhere.resolve("big.bin"));

        ToolResult result = Calls.execute(tool, workspace, "path", ".");

        assertThat(result.content()).endsWith("\npointer\tlink");
    }

    @Test
    void listsAtMostAThousandEntriesAndCountsTheRest() throws Exception {
        for (int i = 0; i < ListFilesTool.MAX_ENTRIES + 5; i++) {
            Files.createFile(workspace.resolve(String.format("f%04d", i)));
        }

        ToolResult result = Calls.execute(tool, workspace, "path", ".");

        assertThat(result.content().lines()).hasSize(1 + ListFilesTool.MAX_ENTRIES + 1);
        assertThat(result.content()).startsWith(". (1005 entries):\nf0000\tfile")
                .contains("f0999\tfile")
                .doesNotContain("f1000")
                .endsWith("\n[5 more entries not listed; only the first 1000 are shown]");
    }

    @Test
    void refusesAFile() throws Exception {
        Files.writeString(workspace.resolve("notes.txt"), "n");

        ToolResult result = Calls.execute(tool, workspace, "path", "notes.txt");

        assertThat(result.failed()).isTrue();
        assertThat(result.content()).isEqualTo("Error: notes.txt is a file, not a folder; use fs_read to read it");
    }

    @Test
    void refusesAFolderThatDoesNotExist() throws Exception {
        ToolResult result = Calls.execute(tool, workspace, "path", "missing/deeper");

        assertThat(result.failed()).isTrue();
        assertThat(result.content()).isEqualTo("Error: missing/deeper does not exist");
    }
}
