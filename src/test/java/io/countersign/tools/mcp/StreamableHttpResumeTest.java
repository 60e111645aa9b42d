package io.countersign.tools.mcp;

import static io.countersign.tools.mcp.ScriptedAgent.answer;
import static io.countersign.tools.mcp.ScriptedAgent.call;
import static io.countersign.tools.mcp.ScriptedAgent.calls;
import static org.assertj.core.api.Assertions.assertThat;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.countersign.engine.tool.ToolSettings;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.engine.tool.ToolResult;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A Streamable HTTP server on a real socket whose tools/call answers on an event stream that it drops: the client
 * resumes with {@code Last-Event-ID} after the server's {@code retry} time, and when the server is gone the call
 * ends at once with its outcome unknown, instead of waiting for its timeout.
 */
class StreamableHttpResumeTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SERVER = "jobs";
    private static final long RETRY_MILLIS = 300;
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

    /** What the server does with the event stream of a tools/call after its priming event. */
    private enum Drop { RESUMABLE, DIES, NO_EVENT_ID }

    private final ToolRegistry registry = new ToolRegistry();
    private final AtomicInteger executions = new AtomicInteger();
    private final List<String> resumedFrom = new CopyOnWriteArrayList<>();
    private final AtomicLong droppedAt = new AtomicLong();
    private final AtomicLong resumedAt = new AtomicLong();
    private final CountDownLatch callReceived = new CountDownLatch(1);
    private volatile Object pendingCall;
    private HttpServer peer;
    private McpToolSource source;

    @AfterEach
    void stop() {
        if (source != null) {
            source.close();
        }
        peer.stop(0);
    }

    private void start(Drop drop) throws IOException {
        peer = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        peer.setExecutor(Executors.newCachedThreadPool());
        peer.createContext("/mcp", exchange -> {
            try {
                if ("GET".equals(exchange.getRequestMethod())) {
                    resume(exchange);
                } else {
                    post(exchange, drop);
                }
            } finally {
                exchange.close();
            }
        });
        peer.start();
        URI url = URI.create("http://127.0.0.1:" + peer.getAddress().getPort() + "/mcp");
        source = McpToolSource.builder(McpServerRecord.streamableHttp(SERVER, url).withCallTimeout(CALL_TIMEOUT)
                .withConnectTimeout(Duration.ofSeconds(5)), registry).build();
        source.open();
    }

    private void post(HttpExchange exchange, Drop drop) throws IOException {
        JsonNode message = JSON.readTree(exchange.getRequestBody());
        String method = message.path("method").asText();
        if (!message.has("id")) {
            exchange.sendResponseHeaders(202, -1);
            return;
        }
        JsonNode id = message.get("id");
        switch (method) {
            case "initialize" -> json(exchange, id, "{\"protocolVersion\": \"2025-11-25\", \"capabilities\":"
                    + " {\"tools\": {}}, \"serverInfo\": {\"name\": \"jobs\", \"version\": \"1\"}}");
            case "tools/list" -> json(exchange, id, "{\"tools\": [{\"name\": \"run\", \"inputSchema\":"
                    + " {\"type\": \"object\"}}]}");
            case "tools/call" -> {
                executions.incrementAndGet();
                pendingCall = JSON.treeToValue(id, Object.class);
                exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
                exchange.sendResponseHeaders(200, 0);
                OutputStream body = exchange.getResponseBody();
                String priming = drop == Drop.NO_EVENT_ID ? ": working\n\n"
                        : "id: call-1\nretry: " + RETRY_MILLIS + "\ndata: \n\n";
                body.write(priming.getBytes(StandardCharsets.UTF_8));
                body.flush();
                callReceived.countDown();
                droppedAt.set(System.nanoTime());
                if (drop == Drop.DIES) {
                    new Thread(() -> peer.stop(0)).start();
                }
            }
            default -> json(exchange, id, "{}");
        }
    }

    /** The standalone stream is not offered; a resumption gets the answer of the dropped call. */
    private void resume(HttpExchange exchange) throws IOException {
        String lastId = exchange.getRequestHeaders().getFirst("Last-Event-ID");
        if (lastId == null || pendingCall == null) {
            exchange.sendResponseHeaders(405, -1);
            return;
        }
        resumedAt.set(System.nanoTime());
        resumedFrom.add(lastId);
        exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
        String answer = "{\"jsonrpc\": \"2.0\", \"id\": " + JSON.writeValueAsString(pendingCall) + ", \"result\":"
                + " {\"content\": [{\"type\": \"text\", \"text\": \"job done\"}]}}";
        exchange.getResponseBody().write(("id: call-2\ndata: " + answer + "\n\n").getBytes(StandardCharsets.UTF_8));
    }

    private static void json(HttpExchange exchange, JsonNode id, String result) throws IOException {
        byte[] body = ("{\"jsonrpc\": \"2.0\", \"id\": " + id + ", \"result\": " + result + "}")
                .getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.getResponseHeaders().add("Mcp-Session-Id", "session-1");
        exchange.sendResponseHeaders(200, body.length);
        exchange.getResponseBody().write(body);
    }

    private ToolResult callTheTool() throws Exception {
        ScriptedAgent agent = new ScriptedAgent(registry, SERVER, ToolSettings.defaults());
        return registry.find("jobs.run").orElseThrow().execute(agent.request("jobs.run", "{}"));
    }

    @Test
    void aDroppedStreamIsResumedAfterTheRetryTimeAndTheCallRunsOnce() throws Exception {
        start(Drop.RESUMABLE);

        ToolResult result = callTheTool();

        assertThat(result.failed()).isFalse();
        assertThat(result.content()).isEqualTo("job done");
        assertThat(executions).hasValue(1);
        assertThat(resumedFrom).containsExactly("call-1");
        assertThat(Duration.ofNanos(resumedAt.get() - droppedAt.get())).isGreaterThanOrEqualTo(
                Duration.ofMillis(RETRY_MILLIS - 50));
    }

    @Test
    void aServerThatDiesMidCallEndsTheRunAtOnceWithTheCallsOutcomeUnknown() throws Exception {
        start(Drop.DIES);
        ScriptedAgent agent = new ScriptedAgent(registry, SERVER,
                ToolSettings.defaults().withServerApprovalBound(SERVER, false));

        long started = System.nanoTime();
        RunOutcome outcome = agent.run(agent.loop(calls(call("c1", "jobs.run", "{}")),
                answer("not asked: the run stops at the unknown outcome")), "run the job");

        assertThat(callReceived.await(1, TimeUnit.SECONDS)).isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
        assertThat(outcome).isInstanceOfSatisfying(RunOutcome.OutcomeUnknown.class, unknown -> {
            assertThat(unknown.callId()).isEqualTo("c1");
            assertThat(unknown.reason()).isEqualTo("server \"jobs\" went away during the call of run (the stream"
                    + " could not be resumed: connection refused): whether it took effect is unknown");
        });
        assertThat(executions).hasValue(1);
    }

    @Test
    void aStreamDroppedWithoutAnEventIdCannotBeResumedAndLeavesTheOutcomeUnknown() throws Exception {
        start(Drop.NO_EVENT_ID);

        long started = System.nanoTime();
        ToolResult result = callTheTool();

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
        assertThat(result.outcomeUnknown()).isTrue();
        assertThat(result.content()).isEqualTo("server \"jobs\" went away during the call of run (the stream ended"
                + " before the answer, with no event id to resume from): whether it took effect is unknown");
        assertThat(resumedFrom).isEmpty();
        assertThat(executions).hasValue(1);
    }
}
