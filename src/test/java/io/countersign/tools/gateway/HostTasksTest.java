package io.countersign.tools.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Json;
import io.countersign.engine.event.EventType;
import io.countersign.engine.tool.CallerChannel;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The gateway's answers to a host's task requests, with a run whose answer the test gives. */
class HostTasksTest {
    private final CompletableFuture<GatewayBackend.Answer> answer = new CompletableFuture<>();
    private final List<CallerChannel> withdrawn = new ArrayList<>();
    /** The status notifications sent, each as "SESSION STATUS". */
    private final List<String> notified = new ArrayList<>();
    private final HostTasks tasks = new HostTasks((session, tool, arguments, channel) -> tool.equals("write_file")
            ? Optional.of(new HostTasks.Started(new Run(), "disk.write_file",
            new GatewayBackend.Task("r1/task-1", answer))) : Optional.empty(),
            taskId -> taskId.equals("r0/task-2") ? Optional.of(new GatewayBackend.Recorded(new GatewayBackend.Answer(
                    "Error: declined by host: the host cancelled this call; nothing was executed.", true, null, null),
                    true, Instant.parse("2026-12-06T09:00:00Z"), Instant.parse("2026-12-06T09:05:00Z")))
                    : Optional.empty(),
            (session, method, params) -> notified.add(session + " " + method + " " + params.path("status").asText()),
            Clock.fixed(Instant.parse("2026-12-06T10:42:00Z"), ZoneOffset.UTC));

    @Test
    void aCallMadeAsATaskIsAnsweredAtOnceAndWorksUntilItsRunAnswers() {
        JsonNode created = request(1, McpSchema.METHOD_TOOLS_CALL,
                "{\"name\": \"write_file\", \"arguments\": {}, \"task\": {\"ttl\": 60000}}");

        assertThat(created.path("result").path("task").path("taskId").asText()).isEqualTo("r1/task-1");
        assertThat(created.path("result").path("task").path("status").asText()).isEqualTo("working");
        assertThat(created.path("result").path("task").path("ttl").asLong()).isEqualTo(60000);
        JsonNode polled = request(2, HostTasks.GET, "{\"taskId\": \"r1/task-1\"}").path("result");
        assertThat(polled.path("statusMessage").asText()).isEqualTo("waiting for a person's decision on run r1");
        assertThat(polled.path("pollInterval").asLong()).isEqualTo(1000);
        CompletableFuture<ObjectNode> result = tasks.answer("s1", message(3, HostTasks.RESULT,
                "{\"taskId\": \"r1/task-1\"}")).orElseThrow();
        assertThat(result).isNotDone();
        assertThat(notified).isEmpty();

        answer.complete(new GatewayBackend.Answer("Successfully wrote to plan.txt", false, null, null));

        JsonNode done = result.join().path("result");
        assertThat(done.path("isError").asBoolean()).isFalse();
        assertThat(done.path("content").get(0).path("text").asText()).isEqualTo("Successfully wrote to plan.txt");
        assertThat(done.path("_meta").path(HostTasks.RELATED_TASK).path("taskId").asText()).isEqualTo("r1/task-1");
        assertThat(request(4, HostTasks.GET, "{\"taskId\": \"r1/task-1\"}").path("result").path("status").asText())
                .isEqualTo("completed");
        assertThat(notified).containsExactly("s1 notifications/tasks/status completed");
        JsonNode late = request(5, HostTasks.CANCEL, "{\"taskId\": \"r1/task-1\"}").path("error");
        assertThat(late.path("code").asInt()).isEqualTo(McpSchema.ErrorCodes.INVALID_PARAMS);
        assertThat(late.path("message").asText()).isEqualTo("Invalid params: task \"r1/task-1\" is already completed"
                + " and cannot be cancelled");
        assertThat(withdrawn).isEmpty();
    }

    @Test
    void aDenialFailsTheTaskWithItsSentenceAndACancelWithdrawsTheCall() {
        request(1, McpSchema.METHOD_TOOLS_CALL, "{\"name\": \"write_file\", \"task\": {}}");

        JsonNode cancelled = request(2, HostTasks.CANCEL, "{\"taskId\": \"r1/task-1\"}").path("result");

        assertThat(cancelled.path("status").asText()).isEqualTo("cancelled");
        assertThat(cancelled.path("ttl").isNull()).isTrue();
        assertThat(withdrawn).singleElement().satisfies(channel -> assertThat(channel.withdrawn()).isTrue());
        answer.complete(new GatewayBackend.Answer("Error: declined by host: the host cancelled this call; nothing"
                + " was executed. Nothing was executed.", true, null, null));
        assertThat(request(3, HostTasks.RESULT, "{\"taskId\": \"r1/task-1\"}").path("result").path("isError")
                .asBoolean()).isTrue();
        assertThat(request(4, HostTasks.LIST, "{}").path("result").path("tasks")).singleElement()
                .satisfies(task -> assertThat(task.path("status").asText()).isEqualTo("cancelled"));
        assertThat(notified).as("the call's answer after the cancel changes nothing")
                .containsExactly("s1 notifications/tasks/status cancelled");
    }

    @Test
    void aTaskThisGatewayDoesNotHoldIsServedAsTheStoreRecordedIt() {
        JsonNode polled = request(1, HostTasks.GET, "{\"taskId\": \"r0/task-2\"}").path("result");
        JsonNode result = request(2, HostTasks.RESULT, "{\"taskId\": \"r0/task-2\"}").path("result");
        JsonNode cancel = request(3, HostTasks.CANCEL, "{\"taskId\": \"r0/task-2\"}").path("error");

        assertThat(polled.path("status").asText()).isEqualTo("cancelled");
        assertThat(polled.path("createdAt").asText()).isEqualTo("2026-12-06T09:00:00Z");
        assertThat(polled.path("lastUpdatedAt").asText()).isEqualTo("2026-12-06T09:05:00Z");
        assertThat(result.path("isError").asBoolean()).isTrue();
        assertThat(result.path("content").get(0).path("text").asText()).startsWith("Error: declined by host");
        assertThat(result.path("_meta").path(HostTasks.RELATED_TASK).path("taskId").asText()).isEqualTo("r0/task-2");
        assertThat(cancel.path("message").asText()).contains("is already cancelled");
        assertThat(notified).isEmpty();
    }

    @Test
    void anUnknownToolOrTaskIsAnInvalidParamNamingIt() {
        JsonNode tool = request(1, McpSchema.METHOD_TOOLS_CALL, "{\"name\": \"nope\", \"task\": {}}").path("error");
        JsonNode task = request(2, HostTasks.GET, "{\"taskId\": \"r9/task-4\"}").path("error");

        assertThat(tool.path("code").asInt()).isEqualTo(McpSchema.ErrorCodes.INVALID_PARAMS);
        assertThat(tool.path("message").asText()).isEqualTo("Unknown tool: nope");
        assertThat(task.path("code").asInt()).isEqualTo(McpSchema.ErrorCodes.INVALID_PARAMS);
        assertThat(task.path("message").asText()).isEqualTo("Invalid params: no task \"r9/task-4\" of this gateway's"
                + " profile; its result may have expired, or another profile or person made it");
        assertThat(tasks.answer("s1", message(3, McpSchema.METHOD_TOOLS_CALL, "{\"name\": \"write_file\"}")))
                .isEmpty();
    }

    @Test
    void initializeDeclaresTasksAndEveryToolMayRunAsOne() {
        McpSchema.InitializeResult initialized = new McpSchema.InitializeResult("2025-11-25",
                McpSchema.ServerCapabilities.builder().tools(true).resources(false, true).build(),
                new McpSchema.Implementation("countersign-gateway", "1"), null);
        McpSchema.ListToolsResult listed = new McpSchema.ListToolsResult(List.of(McpSchema.Tool.builder()
                .name("write_file").inputSchema(Map.of("type", "object")).build()), null);
        HostCapabilities advertised = new HostCapabilities();

        JsonNode capabilities = Json.mapper().valueToTree(((McpSchema.JSONRPCResponse) advertised.advertised(
                McpSchema.JSONRPCResponse.result(1, initialized))).result()).path("capabilities");
        JsonNode tools = Json.mapper().valueToTree(((McpSchema.JSONRPCResponse) advertised.advertised(
                McpSchema.JSONRPCResponse.result(2, listed))).result()).path("tools");
        advertised.fronted(true, true);
        JsonNode fronted = Json.mapper().valueToTree(((McpSchema.JSONRPCResponse) advertised.advertised(
                McpSchema.JSONRPCResponse.result(3, initialized))).result()).path("capabilities");

        assertThat(capabilities.path("tasks").toString())
                .isEqualTo("{\"list\":{},\"cancel\":{},\"requests\":{\"tools\":{\"call\":{}}}}");
        assertThat(capabilities.has("tools")).isTrue();
        assertThat(capabilities.path("resources").path("subscribe").asBoolean()).as("none offered").isFalse();
        assertThat(capabilities.has("completions")).isFalse();
        assertThat(tools.get(0).path("execution").path("taskSupport").asText()).isEqualTo("optional");
        assertThat(fronted.path("resources").path("subscribe").asBoolean()).isTrue();
        assertThat(fronted.path("resources").path("listChanged").asBoolean()).isTrue();
        assertThat(fronted.has("completions")).isTrue();
    }

    private JsonNode request(int id, String method, String params) {
        return tasks.answer("s1", message(id, method, params)).orElseThrow().join();
    }

    private static HostMessage.Accepted message(int id, String method, String params) {
        return (HostMessage.Accepted) HostMessage.read("{\"jsonrpc\": \"2.0\", \"id\": " + id + ", \"method\": \""
                + method + "\", \"params\": " + params + "}");
    }

    /** A run whose card waits until the test gives the answer. */
    private final class Run implements GatewayBackend.Connection {
        @Override
        public CompletableFuture<GatewayBackend.Answer> call(String toolName, ObjectNode arguments,
                                                             CallerChannel caller) {
            throw new UnsupportedOperationException("only tasks here");
        }

        @Override
        public GatewayBackend.Task callAsTask(String toolName, ObjectNode arguments, CallerChannel caller) {
            throw new UnsupportedOperationException("the starter hands the task out");
        }

        @Override
        public void withdraw(CallerChannel caller) {
            withdrawn.add(caller);
        }

        @Override
        public void used(EventType use, String server, String detail) {
        }

        @Override
        public String waiting() {
            return "waiting for a person's decision on run r1";
        }

        @Override
        public void close() {
        }
    }
}
