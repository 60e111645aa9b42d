package io.countersign.tools.mcp;

import static io.countersign.tools.mcp.ScriptedAgent.answer;
import static io.countersign.tools.mcp.ScriptedAgent.call;
import static io.countersign.tools.mcp.ScriptedAgent.calls;
import static org.assertj.core.api.Assertions.assertThat;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.countersign.engine.call.ToolExecutionContext;
import io.countersign.engine.port.EventSink;
import io.countersign.engine.port.ScriptedChatModel;
import io.countersign.engine.state.RunOptions;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.tool.ToolSettings;
import io.countersign.engine.run.RunRequest;
import io.countersign.engine.run.ToolLoop;
import io.countersign.engine.tool.InputPrompts;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.tools.NetworkntSchemaValidator;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A Streamable HTTP server "tickets" on a real socket whose tool {@code file} asks for a ticket's title and
 * priority ({@code elicitation/create}) on the call's event stream and answers with what it got, and a run of
 * {@code run-1} by maria that calls it once through the real MCP client.
 */
public final class AskingTicketServer implements AutoCloseable {
    public static final String SERVER = "tickets";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String FORM = "{\"type\": \"object\", \"properties\": {\"title\": {\"type\": \"string\","
            + " \"title\": \"Title\", \"minLength\": 3}, \"priority\": {\"type\": \"string\", \"enum\": [\"low\","
            + " \"high\"], \"default\": \"low\"}}, \"required\": [\"title\"]}";

    private final ToolRegistry registry = new ToolRegistry();
    private final BlockingQueue<JsonNode> elicitAnswers = new LinkedBlockingQueue<>();
    private final BlockingQueue<JsonNode> received = new LinkedBlockingQueue<>();
    private final HttpServer peer;
    private final McpToolSource source;

    private AskingTicketServer() throws IOException {
        peer = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        peer.setExecutor(Executors.newCachedThreadPool());
        peer.createContext("/mcp", exchange -> {
            try {
                if ("GET".equals(exchange.getRequestMethod())) {
                    exchange.sendResponseHeaders(405, -1);
                } else {
                    post(exchange);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                exchange.close();
            }
        });
        peer.start();
        URI url = URI.create("http://127.0.0.1:" + peer.getAddress().getPort() + "/mcp");
        // a short call timeout: the time the person takes must not count against it
        source = McpToolSource.builder(McpServerRecord.streamableHttp(SERVER, url)
                .withCallTimeout(Duration.ofSeconds(1)).withConnectTimeout(Duration.ofSeconds(5)), registry).build();
        source.open();
    }

    /** Starts the server and connects to it. */
    public static AskingTicketServer start() throws IOException {
        return new AskingTicketServer();
    }

    /** Runs the agent whose only call is {@code tickets.file}; blocks while the server's question waits. */
    public RunOutcome run(InputPrompts prompts, RunOptions options, EventSink events) {
        ScriptedAgent agent = new ScriptedAgent(registry, SERVER,
                ToolSettings.defaults().withServerApprovalBound(SERVER, false));
        ToolLoop loop = ToolLoop.builder(registry, ScriptedChatModel.of(List.of(
                        calls(call("c1", "tickets.file", "{}")), answer("filed"))))
                .schemas(new NetworkntSchemaValidator())
                .settings(() -> ToolSettings.defaults().withServerApprovalBound(SERVER, false))
                .events(events)
                .inputPrompts(prompts)
                .build();
        return loop.runLoop(RunRequest.of(agent.configuration, ToolExecutionContext.of(ScriptedAgent.MARIA, "run-1",
                Locale.ENGLISH), "file a ticket").withOptions(options));
    }

    /** What the client answered the question with (the JSON-RPC result), waiting for it up to 20 s. */
    public JsonNode received() throws InterruptedException {
        JsonNode answer = received.poll(20, TimeUnit.SECONDS);
        assertThat(answer).as("the server's question was answered").isNotNull();
        return answer;
    }

    /** The text of the call's result in a run's outcome. */
    public static String resultOf(RunOutcome outcome) {
        return ScriptedAgent.resultOf(outcome, "c1");
    }

    private void post(HttpExchange exchange) throws IOException, InterruptedException {
        JsonNode message = JSON.readTree(exchange.getRequestBody());
        if (!message.has("method")) {
            elicitAnswers.add(message); // the client's answer to the question
            received.add(message.path("result"));
            exchange.sendResponseHeaders(202, -1);
            return;
        }
        if (!message.has("id")) {
            exchange.sendResponseHeaders(202, -1);
            return;
        }
        JsonNode id = message.get("id");
        switch (message.path("method").asText()) {
            case "initialize" -> {
                assertThat(message.path("params").path("capabilities").has("elicitation")).isTrue();
                json(exchange, id, "{\"protocolVersion\": \"2025-11-25\", \"capabilities\": {\"tools\": {}},"
                        + " \"serverInfo\": {\"name\": \"tickets\", \"version\": \"1\"}}");
            }
            case "tools/list" -> json(exchange, id, "{\"tools\": [{\"name\": \"file\", \"inputSchema\":"
                    + " {\"type\": \"object\"}}]}");
            case "tools/call" -> {
                exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
                exchange.sendResponseHeaders(200, 0);
                OutputStream body = exchange.getResponseBody();
                event(body, "{\"jsonrpc\": \"2.0\", \"id\": \"q1\", \"method\": \"elicitation/create\", \"params\":"
                        + " {\"message\": \"Which ticket?\", \"requestedSchema\": " + FORM + "}}");
                JsonNode answer = elicitAnswers.poll(30, TimeUnit.SECONDS);
                String said = answer == null ? "no answer" : answer.path("result").toString();
                event(body, "{\"jsonrpc\": \"2.0\", \"id\": " + id + ", \"result\": {\"content\": [{\"type\":"
                        + " \"text\", \"text\": " + JSON.writeValueAsString(said) + "}]}}");
            }
            default -> json(exchange, id, "{}");
        }
    }

    private static void event(OutputStream body, String data) throws IOException {
        body.write(("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
        body.flush();
    }

    private static void json(HttpExchange exchange, JsonNode id, String result) throws IOException {
        byte[] body = ("{\"jsonrpc\": \"2.0\", \"id\": " + id + ", \"result\": " + result + "}")
                .getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.getResponseHeaders().add("Mcp-Session-Id", "session-1");
        exchange.sendResponseHeaders(200, body.length);
        exchange.getResponseBody().write(body);
    }

    @Override
    public void close() {
        source.close();
        peer.stop(0);
    }
}
