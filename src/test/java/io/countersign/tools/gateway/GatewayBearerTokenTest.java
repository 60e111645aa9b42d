package io.countersign.tools.gateway;

import static io.countersign.tools.gateway.GatewayTestBed.RITA;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.countersign.engine.Json;
import io.countersign.testing.FastJava;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP gateway's identity, with real parts: {@code countersign gateway --listen} as a child process, raw HTTP
 * requests and the official SDK's client as hosts, and {@code countersign gateway token} as a person runs it to
 * configure a host.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GatewayBearerTokenTest {
    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"intruder\","
            + "\"version\":\"1\"}}}";

    @TempDir
    static Path folder;
    private GatewayTestBed bed;
    private HttpGatewayProcess listener;

    @BeforeAll
    void aGatewayListening() throws Exception {
        bed = new GatewayTestBed(folder);
        listener = bed.listen();
    }

    @AfterAll
    void stop() throws Exception {
        if (bed != null) {
            bed.close();
        }
    }

    @Test
    void aRequestWithoutTheTokenOrWithAnotherIsRefused401AndReachesNothing() throws Exception {
        String token = listener.authorization().substring("Bearer ".length());
        HttpClient http = HttpClient.newHttpClient();

        for (String authorization : Arrays.asList(null, "Bearer", "Bearer not-the-token",
                "Bearer " + token.substring(1), "Bearer " + token + "x", "Basic " + token, token)) {
            HttpRequest.Builder request = HttpRequest.newBuilder(listener.url()).header("Content-Type",
                    "application/json").header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString(INITIALIZE));
            if (authorization != null) {
                request.header("Authorization", authorization);
            }
            HttpResponse<String> refused = http.send(request.build(), HttpResponse.BodyHandlers.ofString());

            assertThat(refused.statusCode()).as(String.valueOf(authorization)).isEqualTo(401);
            assertThat(refused.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(challenge ->
                    assertThat(challenge).startsWith("Bearer "));
            assertThat(refused.headers().firstValue("Mcp-Session-Id")).isEmpty();
            JsonNode error = Json.mapper().readTree(refused.body()).path("error");
            assertThat(error.path("message").asText()).startsWith("Unauthorized: ")
                    .contains("countersign gateway token").doesNotContain(token);
        }
        // no refused initialize started a run
        assertThat(bed.console().runs().recent(RITA, 5)).noneSatisfy(run ->
                assertThat(run.prompt()).contains("intruder"));
    }

    @Test
    void gatewayTokenPrintsTheTokenTheListenerServes() throws Exception {
        Process command = new ProcessBuilder(FastJava.countersign("--store", bed.db().toString(), "gateway",
                "token")).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String printed = new String(command.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(command.waitFor(60, TimeUnit.SECONDS)).isTrue();

        assertThat(command.exitValue()).isZero();
        assertThat(printed.lines().toList()).singleElement().satisfies(token -> {
            assertThat(token).matches("[A-Za-z0-9_-]{43}");
            assertThat("Bearer " + token).isEqualTo(listener.authorization());
        });
        McpSyncClient host = GatewayHost.start(HttpClientStreamableHttpTransport.builder("http://"
                        + listener.url().getAuthority()).endpoint(listener.url().getPath())
                        .requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + printed.strip()))
                        .build(), GatewayHost.CLIENT, new ArrayList<>(), new ArrayList<>(), List.of("echo"));
        try {
            assertThat(GatewayHost.toolNames(host)).contains("echo", "disk.write_file");
        } finally {
            host.closeGracefully();
        }
    }

    @Test
    void theTokenIsKeptReadableByItsUserOnlyAndServesTheNextStartToo() throws Exception {
        Path file = folder.resolve(GatewayToken.FILE_NAME);
        String before = listener.authorization();

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat("Bearer " + Files.readString(file).strip()).isEqualTo(before);

        listener.close();
        listener = bed.listen();

        assertThat(listener.authorization()).isEqualTo(before);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    }

    @Test
    void aTokenFileOthersCanReadIsRefusedInOneLine(@TempDir Path elsewhere) throws Exception {
        Path db = elsewhere.resolve("countersign.db");
        assertThat(token(db).exitValue()).isZero();
        Path file = elsewhere.resolve(GatewayToken.FILE_NAME);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

        Process refused = token(db);

        assertThat(refused.exitValue()).isEqualTo(2);
        assertThat(new String(refused.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isEmpty();
        assertThat(new String(refused.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList())
                .singleElement().asString().isEqualTo("countersign: the gateway's token file " + file
                        + " can be read by others (rw-r--r--); it is not used: remove it (a new token is made) or"
                        + " make it rw------- (chmod 600)");
    }

    private static Process token(Path db) throws Exception {
        Process command = new ProcessBuilder(FastJava.countersign("--store", db.toString(), "gateway", "token"))
                .start();
        assertThat(command.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return command;
    }
}
