package io.countersign.tools.mcp;

import static io.countersign.tools.mcp.ScriptedAgent.answer;
import static io.countersign.tools.mcp.ScriptedAgent.call;
import static io.countersign.tools.mcp.ScriptedAgent.calls;
import static io.countersign.tools.mcp.ScriptedAgent.resultOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.countersign.engine.access.ToolSettings;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.invocation.ToolExecutionContext;
import io.countersign.engine.port.ScriptedChatModel;
import io.countersign.engine.run.RunOptions;
import io.countersign.engine.run.RunOutcome;
import io.countersign.engine.run.RunRequest;
import io.countersign.engine.run.RunStatus;
import io.countersign.engine.run.ToolLoop;
import io.countersign.engine.tool.InputField;
import io.countersign.engine.tool.InvalidInputException;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.engine.port.IdGenerator;
import io.countersign.service.AskedInputs;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A Streamable HTTP server on a real socket whose tool asks for a ticket's title and priority
 * ({@code elicitation/create}) on the call's event stream and answers with what it got. The run's call waits in
 * this process for the person's answer, with the form's fields as input fields and their validation.
 */
class ElicitationTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SERVER = "tickets";
    private static final String FORM = "{\"type\": \"object\", \"properties\": {\"title\": {\"type\": \"string\","
            + " \"title\": \"Title\", \"minLength\": 3}, \"priority\": {\"type\": \"string\", \"enum\": [\"low\","
            + " \"high\"], \"default\": \"low\"}}, \"required\": [\"title\"]}";

    private final ToolRegistry registry = new ToolRegistry();
    private final BlockingQueue<JsonNode> elicitAnswers = new LinkedBlockingQueue<>();
    private final List<GovernanceEvent> events = new CopyOnWriteArrayList<>();
    private final AskedInputs asked = new AskedInputs(Clock.systemUTC(), IdGenerator.random());
    private HttpServer peer;
    private McpToolSource source;
    private AutoCloseable surface;

    @BeforeEach
    void start() throws IOException {
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
        surface = asked.attach(() -> { });
    }

    @AfterEach
    void stop() throws Exception {
        surface.close();
        source.close();
        peer.stop(0);
    }

    private void post(HttpExchange exchange) throws IOException, InterruptedException {
        JsonNode message = JSON.readTree(exchange.getRequestBody());
        if (!message.has("method")) {
            elicitAnswers.add(message); // the client's answer to the question
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

    private RunOutcome run(RunOptions options) {
        ScriptedAgent agent = new ScriptedAgent(registry, SERVER,
                ToolSettings.defaults().withServerApprovalBound(SERVER, false));
        ToolLoop loop = ToolLoop.builder(registry, ScriptedChatModel.of(List.of(
                        calls(call("c1", "tickets.file", "{}")), answer("filed"))))
                .settings(() -> ToolSettings.defaults().withServerApprovalBound(SERVER, false))
                .events(events::add)
                .inputPrompts(asked)
                .build();
        return loop.runLoop(RunRequest.of(agent.configuration, ToolExecutionContext.of(ScriptedAgent.MARIA, "run-1",
                Locale.ENGLISH), "file a ticket").withOptions(options));
    }

    private AskedInputs.Asked question() {
        await().atMost(Duration.ofSeconds(10)).until(() -> !asked.waiting(ScriptedAgent.JONAS).isEmpty());
        return asked.waiting(ScriptedAgent.JONAS).get(0);
    }

    @Test
    void theRunWaitsForThePersonsAnswerWhichGoesBackToTheServerAndTheCallGoesOn() throws Exception {
        CompletableFuture<RunOutcome> run = CompletableFuture.supplyAsync(() -> run(RunOptions.DEFAULTS));

        AskedInputs.Asked question = question();
        assertThat(question.runId()).isEqualTo("run-1");
        assertThat(question.toolName()).isEqualTo("tickets.file");
        assertThat(question.message()).isEqualTo("Which ticket?");
        assertThat(question.fields()).extracting(InputField::name, InputField::type, InputField::required)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("title", InputField.InputType.STRING, true),
                        org.assertj.core.groups.Tuple.tuple("priority", InputField.InputType.ENUM, false));
        assertThatThrownBy(() -> asked.accept(ScriptedAgent.JONAS, question.id(), values("{\"title\": \"no\"}")))
                .isInstanceOf(InvalidInputException.class);
        Thread.sleep(1_500); // longer than the call timeout: the person's time does not count
        assertThat(asked.accept(ScriptedAgent.JONAS, question.id(),
                values("{\"title\": \"Printer on fire\", \"priority\": \"high\"}"))).isTrue();
        RunOutcome outcome = run.get(20, TimeUnit.SECONDS);

        assertThat(outcome.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(JSON.readTree(resultOf(outcome, "c1"))).isEqualTo(JSON.readTree("{\"action\": \"accept\","
                + " \"content\": {\"title\": \"Printer on fire\", \"priority\": \"high\"}}"));
        assertThat(events).filteredOn(event -> event.type() == EventType.INPUT_ELICITED).singleElement()
                .satisfies(event -> {
                    assertThat(event.reasonCode()).isEqualTo("accept");
                    assertThat(event.actor()).isEqualTo("jonas");
                    assertThat(event.toolName()).isEqualTo("tickets.file");
                    assertThat(event.detail()).isEqualTo("fields: title, priority");
                    assertThat(event.toString()).doesNotContain("Printer");
                });
        assertThat(asked.waiting(ScriptedAgent.JONAS)).isEmpty();
    }

    @Test
    void aDeclineGoesBackToTheServerAsADecline() throws Exception {
        CompletableFuture<RunOutcome> run = CompletableFuture.supplyAsync(() -> run(RunOptions.DEFAULTS));

        assertThat(asked.decline(ScriptedAgent.JONAS, question().id())).isTrue();

        assertThat(resultOf(run.get(20, TimeUnit.SECONDS), "c1")).isEqualTo("{\"action\":\"decline\"}");
        assertThat(events).filteredOn(event -> event.type() == EventType.INPUT_ELICITED)
                .extracting(GovernanceEvent::reasonCode).containsExactly("decline");
    }

    @Test
    void anUnattendedRunDeclinesWithoutAskingAnyone() {
        RunOutcome outcome = run(RunOptions.unattendedRun());

        assertThat(resultOf(outcome, "c1")).isEqualTo("{\"action\":\"decline\"}");
        assertThat(events).filteredOn(event -> event.type() == EventType.INPUT_ELICITED).singleElement()
                .satisfies(event -> {
                    assertThat(event.reasonCode()).isEqualTo("decline");
                    assertThat(event.actor()).isNull();
                });
    }

    private static ObjectNode values(String json) throws IOException {
        return (ObjectNode) JSON.readTree(json);
    }
}
