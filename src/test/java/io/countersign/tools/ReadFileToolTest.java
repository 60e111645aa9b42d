package io.countersign.tools;

import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.engine.tool.ToolResult;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReadFileToolTest {
    private final ReadFileTool tool = new ReadFileTool();

    @TempDir
    Path workspace;

    @Test
    void returnsTheTextUnchanged() throws Exception {
        String text = "Grüße, 世界\n\ttabs and\r\nline breaks stay\n";
        Files.createDirectories(workspace.resolve("docs"));
        Files.writeString(workspace.resolve("docs/hello.txt"), text);

        ToolResult result = Calls.execute(tool, workspace, "path", "docs/hello.txt");

        assertThat(result.failed()).isFalse();
        assertThat(result.content()).isEqualTo(text);
    }

    @Test
    void returnsAnEmptyFileAsEmptyText() throws Exception {
        Files.createFile(workspace.resolve("empty.txt"));

        ToolResult result = Calls.execute(tool, workspace, "path", "empty.txt");

        assertThat(result.failed()).isFalse();
        assertThat(result.content()).isEmpty();
    }

    @Test
    void refusesBytesThatAreNotUtf8() throws Exception {
        Files.write(workspace.resolve("logo.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G', (byte) 0xFF});

        ToolResult result = Calls.execute(tool, workspace, "path", "logo.png");

        assertThat(result.failed()).isTrue();
        assertThat(result.content()).isEqualTo("Error: logo.png is not UTF-8 text; it looks like a binary file");
    }

    @Test
    void refusesUtf8WithANulByteAsBinary() throws Exception {
        Files.write(workspace.resolve("data.bin"), new byte[] {'a', 0, 'b'});

        ToolResult result = Calls.execute(tool, workspace, "path", "data.bin");

        assertThat(result.failed()).isTrue();
        assertThat(result.content()).contains("data.bin is not UTF-8 text");
    }

    @Test
    void refusesAFileThatDoesNotExist() throws Exception {
        ToolResult result = Calls.execute(tool, workspace, "path", "missing.txt");

        assertThat(result.failed()).isTrue();
        assertThat(result.content()).isEqualTo("Error: missing.txt does not exist");
    }

    @Test
    void refusesAFolder() throws Exception {
        Files.createDirectories(workspace.resolve("docs"));

        ToolResult result = Calls.execute(tool, workspace, "path", "docs");

        assertThat(result.failed()).isTrue();
        assertThat(result.content()).isEqualTo("Error: docs is a folder, not a file; use fs_list to see what it holds");
    }

    @Test
    void keepsOnlyTheFirstBytesOfALongFile() throws Exception {
        Files.writeString(workspace.resolve("long.txt"), "x".repeat(ToolResult.MAX_BYTES + 10_000));

        ToolResult result = Calls.execute(tool, workspace, "path", "long.txt");

        assertThat(result.failed()).isFalse();
        assertThat(result.content()).startsWith("xxxx").contains("[result truncated: 60000 bytes");
    }

    @Test
    void refusesAFileTooLargeToLoad() throws Exception {
        try (RandomAccessFile huge = new RandomAccessFile(workspace.resolve("huge.log").toFile(), "rw")) {
            huge.setLength(Workspace.MAX_TEXT_BYTES + 1);
        }

        ToolResult result = Calls.execute(tool, workspace, "path", "huge.log");

        assertThat(result.failed()).isTrue();
        assertThat(result.content()).isEqualTo("Error: huge.log is 8388609 bytes; files of at most 8388608 bytes"
                + " can be read");
    }
}
