package io.countersign.tools.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.countersign.engine.Json;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Mono;

/** The host's stdio connection, spoken to as a host speaks: lines of JSON-RPC in, lines out. */
@Timeout(30)
class StdioHostTransportTest {
    private final CountDownLatch ended = new CountDownLatch(1);
    private final List<String> cancelled = new CopyOnWriteArrayList<>();
    private final List<String> handled = new CopyOnWriteArrayList<>();
    private PipedOutputStream host;
    private BufferedReader answers;
    private McpAsyncServer server;

    @BeforeEach
    void serve() throws IOException {
        PipedInputStream in = new PipedInputStream(64 * 1024);
        host = new PipedOutputStream(in);
        PipedInputStream fromServer = new PipedInputStream(64 * 1024);
        OutputStream out = new PipedOutputStream(fromServer);
        answers = new BufferedReader(new InputStreamReader(fromServer, StandardCharsets.UTF_8));
        server = McpServer.async(new StdioHostTransport(McpJsonDefaults.getMapper(), in, out, ended::countDown,
                        (session, id) -> cancelled.add(HostRequests.key(id)),
                        new HostTasks((session, tool, arguments, channel) -> Optional.empty(),
                                taskId -> Optional.empty(), (session, method, params) -> { }, Clock.systemUTC())))
                .serverInfo("transport-test", "1.0")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
                .tools(McpServerFeatures.AsyncToolSpecification.builder()
                        .tool(McpSchema.Tool.builder().name("wait").inputSchema(Map.of("type", "object")).build())
                        .callHandler((exchange, request) -> {
                            handled.add(HostRequests.key(exchange));
                            return Mono.never();
                        }).build())
                .build();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aLineThatIsNotJsonRpcGetsAParseErrorAndTheConnectionGoesOn() throws Exception {
        send("this is not json");

        JsonNode refusal = Json.mapper().readTree(answers.readLine());
        assertThat(refusal.path("error").path("code").asInt()).isEqualTo(McpSchema.ErrorCodes.PARSE_ERROR);
        assertThat(refusal.path("error").path("message").asText())
                .isEqualTo("Parse error: the message is not JSON at line 1, column 1");
        assertThat(refusal.path("id").isNull()).isTrue();

        send("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"test-host\",\"version\":\"1.0\"}}}");
        JsonNode initialized = Json.mapper().readTree(answers.readLine());
        assertThat(initialized.path("id").asInt()).isEqualTo(7);
        assertThat(initialized.path("result").path("serverInfo").path("name").asText()).isEqualTo("transport-test");
        assertThat(ended.getCount()).isEqualTo(1);
    }

    @Test
    void aCallsHandlerKnowsItsRequestIdAndTheHostsCancellationOfItIsPassedOn() throws Exception {
        send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"test-host\",\"version\":\"1.0\"}}}");
        answers.readLine();
        send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        send("{\"jsonrpc\":\"2.0\",\"id\":\"call-42\",\"method\":\"tools/call\",\"params\":{\"name\":\"wait\","
                + "\"arguments\":{}}}");
        await().atMost(10, TimeUnit.SECONDS).until(() -> !handled.isEmpty());

        send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"call-42\","
                + "\"reason\":\"timed out\"}}");

        await().atMost(10, TimeUnit.SECONDS).until(() -> !cancelled.isEmpty());
        assertThat(handled).containsExactly("\"call-42\"");
        assertThat(cancelled).containsExactly("\"call-42\"");
        assertThat(cancelled).isEqualTo(handled);
    }

    @Test
    void aHostThatClosesItsOutputEndsTheConnection() throws Exception {
        host.close();

        assertThat(ended.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aLineLongerThanTheLimitEndsTheConnectionInsteadOfFillingMemory() throws Exception {
        byte[] chunk = new byte[1024 * 1024];
        Arrays.fill(chunk, (byte) 'x');
        Thread writer = new Thread(() -> {
            try {
                for (int written = 0; written <= HostMessage.MAX_BYTES; written += chunk.length) {
                    host.write(chunk);
                }
            } catch (IOException expected) {
                // the reading side stopped reading and closed
            }
        });
        writer.setDaemon(true);
        writer.start();

        assertThat(ended.await(20, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void numericRequestIdsKeyAlikeHoweverTheyWereRead() {
        assertThat(HostRequests.key(7)).isEqualTo(HostRequests.key(7L)).isEqualTo(HostRequests.key(7.0))
                .isNotEqualTo(HostRequests.key("7"));
    }

    private void send(String line) throws IOException {
        host.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        host.flush();
    }
}
