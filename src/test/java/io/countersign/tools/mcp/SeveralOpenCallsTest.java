package io.countersign.tools.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.call.ToolExecutionContext;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.tool.CallerChannel;
import io.countersign.engine.tool.InputPrompts;
import io.countersign.engine.tool.ToolCallRequest;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a server sends while more than one call is open on its connection, against the conformance suite's scenario
 * tools ({@code conformance/scenario-tools.mjs}) over stdio: MCP does not say which call a log message or a
 * request belongs to, so with two calls open neither caller hears the log and a sampling request is refused with
 * the reason; with one call open, its caller hears and answers as before.
 */
class SeveralOpenCallsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The first caller's answer to its server's sampling request, as MCP spells a {@code CreateMessageResult}. */
    private static final JsonNode TEAL = JSON.createObjectNode().put("role", "assistant").put("model", "host-model")
            .set("content", JSON.createObjectNode().put("type", "text").put("text", "teal"));

    @TempDir
    Path folder;
    private McpConnection connection;
    /** The first call's caller, whose answer to its server's sampling request is held until the test gives it. */
    private Caller first;

    @BeforeEach
    void aCallWaitingForItsCallersAnswer() throws Exception {
        connection = new McpConnection(McpPeers.scenarioTools(folder, "scenarios"), SecretResolver.environment(),
                new McpConnection.Listener() {
                    @Override
                    public void toolsChanged() {
                    }

                    @Override
                    public void reconnected() {
                    }
                }, Clock.systemUTC(), null);
        first = new Caller();
        first.open(connection, "test_sampling", Map.of("prompt", "Name a colour"));
        first.asked.get(30, TimeUnit.SECONDS);
    }

    @AfterEach
    void closeTheConnection() {
        first.answer.complete(TEAL); // a call still waiting is let go before its server stops
        connection.close();
    }

    @Test
    void aSamplingRequestWhileTwoCallsAreOpenIsRefusedAndTheFirstCallStillGetsItsAnswer() throws Exception {
        Caller second = new Caller();

        McpSchema.CallToolResult refused = second.call(connection, "test_sampling", Map.of("prompt", "And you?"));

        assertThat(second.asked).isNotDone();
        assertThat(refused.isError()).isTrue();
        assertThat(text(refused)).startsWith("Sampling failed:").contains("Countersign cannot tell which of the 2"
                + " calls open on this connection sent sampling/createMessage, so it answers none");

        first.answer.complete(TEAL);
        McpSchema.CallToolResult answered = first.result.get(30, TimeUnit.SECONDS);
        assertThat(text(answered)).isEqualTo("LLM response: teal");
        assertThat(first.asked.get().path("messages").path(0).path("content").path("text").asText())
                .isEqualTo("Name a colour");
    }

    @Test
    void logMessagesWhileTwoCallsAreOpenReachNeitherCallerAndReachTheOnlyCallOnceTheOtherEnded() throws Exception {
        Caller whileTwoOpen = new Caller();

        McpSchema.CallToolResult logged = whileTwoOpen.call(connection, "test_tool_with_logging", Map.of());

        assertThat(text(logged)).isEqualTo("Tool with logging executed successfully");
        assertThat(whileTwoOpen.logs).isEmpty();
        assertThat(first.logs).isEmpty();

        first.answer.complete(TEAL);
        first.result.get(30, TimeUnit.SECONDS);
        Caller alone = new Caller();
        alone.call(connection, "test_tool_with_logging", Map.of());
        assertThat(alone.logs).extracting(message -> message.path("data").asText())
                .containsExactly("Tool execution started", "Tool processing data", "Tool execution completed");
    }

    private static String text(McpSchema.CallToolResult result) {
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }

    /** A host-like caller that answers sampling: it records what it heard and answers when the test says. */
    private static final class Caller implements CallerChannel {
        final CompletableFuture<JsonNode> asked = new CompletableFuture<>();
        final CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        CompletableFuture<McpSchema.CallToolResult> result;
        final List<JsonNode> logs = new CopyOnWriteArrayList<>();

        /** Starts the call on another thread; {@link #result} completes with its result. */
        void open(McpConnection connection, String tool, Map<String, Object> arguments) {
            result = CompletableFuture.supplyAsync(() -> call(connection, tool, arguments));
        }

        McpSchema.CallToolResult call(McpConnection connection, String tool, Map<String, Object> arguments) {
            AgentConfiguration agent = AgentConfiguration.of("host", ModelConfiguration.scripted("scripted"),
                    List.of("scenarios"));
            ToolCallRequest request = new ToolCallRequest("scenarios." + tool, (ObjectNode) JSON.valueToTree(arguments),
                    agent, ToolExecutionContext.of(Actor.of("ada", Role.OPERATOR), "run-1", Locale.ENGLISH),
                    InputPrompts.DECLINE, this);
            return connection.call(tool, arguments, request, answered -> { });
        }

        @Override
        public boolean wantsProgress() {
            return false;
        }

        @Override
        public void progress(double progress, Double total, String message) {
        }

        @Override
        public void log(JsonNode message) {
            logs.add(message);
        }

        @Override
        public boolean answers(Request kind) {
            return kind == Request.SAMPLING;
        }

        @Override
        public CompletableFuture<JsonNode> ask(Request kind, JsonNode params) {
            asked.complete(params);
            return answer;
        }
    }
}
