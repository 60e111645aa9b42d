package io.countersign.tools.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.countersign.testing.FastJava;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two processes that connect the same two reference servers in opposite orders send the model byte-identical
 * requests: local tools in registration order, then remote tools by server and name.
 */
class ToolOrderAcrossProcessesTest {
    private static final long CHILD_TIMEOUT_SECONDS = 90;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path folder;

    @Test
    void twoProcessesThatConnectTheServersInOppositeOrdersSendTheSameRequest() throws Exception {
        try (MockWebServer model = new MockWebServer()) {
            model.start();
            String answer = "{\"choices\": [{\"message\": {\"role\": \"assistant\", \"content\": \"None.\"},"
                    + " \"finish_reason\": \"stop\"}]}";
            for (int i = 0; i < 2; i++) {
                model.enqueue(new MockResponse.Builder().addHeader("Content-Type", "application/json").body(answer)
                        .build());
            }
            String endpoint = model.url("/v1").toString();

            String filesFirst = requestOf(model, endpoint, "fs", "every");
            String everythingFirst = requestOf(model, endpoint, "every", "fs");

            List<String> offered = offered(filesFirst);
            assertThat(offered(everythingFirst)).containsExactlyElementsOf(offered);
            assertThat(everythingFirst.equals(filesFirst)).as("the two requests are byte-identical").isTrue();
            assertThat(offered.subList(0, 6)).containsExactly("fs_list", "fs_read", "fs_write", "fs_delete",
                    "web_fetch", "ask_user");
            List<String> remote = offered.subList(6, offered.size());
            assertThat(remote).isSortedAccordingTo(String::compareTo).anyMatch(name -> name.startsWith("every_"))
                    .anyMatch(name -> name.startsWith("fs_"));
            assertThat(remote.get(0)).startsWith("every_");
        }
    }

    private static List<String> offered(String request) throws Exception {
        List<String> names = new ArrayList<>();
        JSON.readTree(request).path("tools").forEach(tool -> names.add(tool.path("function").path("name").asText()));
        return names;
    }

    private String requestOf(MockWebServer model, String endpoint, String... servers) throws Exception {
        List<String> command = new ArrayList<>(FastJava.command(OfferedToolsChild.class.getName(), endpoint,
                folder.toRealPath().toString()));
        command.addAll(List.of(servers));
        Path log = Files.createTempFile(folder, "child-", ".log");
        Process child = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean finished = child.waitFor(CHILD_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        if (!finished) {
            child.descendants().forEach(ProcessHandle::destroyForcibly);
            child.destroyForcibly();
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        assertThat(finished).as("the child finished within %d s:%n%s", CHILD_TIMEOUT_SECONDS, output).isTrue();
        assertThat(child.exitValue()).as("the child's exit status; its output:%n%s", output).isZero();
        RecordedRequest request = model.takeRequest(5, TimeUnit.SECONDS);
        assertThat(request).as("the child asked the model; its output:%n%s", output).isNotNull();
        return request.getBody().utf8();
    }
}
