package io.countersign.tools.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.countersign.engine.event.EventFilter;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.event.PageRequest;
import io.countersign.tools.mcp.McpPeers;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a fronted server sends beyond a call's answer, through the gateway to the TypeScript SDK's client as the host
 * ({@code task-host.mjs}) over Streamable HTTP, in front of the conformance scenarios' server. Resource
 * subscriptions and completions: the subscribed resource changes every 200 ms, each subscribed session hears the
 * updates, one that unsubscribed no longer does, a completion names the prompt as the host sees it, each use is
 * recorded without the URI, and a profile that does not offer the server's tools refuses both as unknown. A task's
 * call: the server's progress and log messages reach the host tied to the task.
 */
class GatewayFrontedNotificationsTest {
    private static final String WATCHED = "test://watched-resource";
    private static final String ASK_PA = "{\"op\": \"complete\", \"ref\": {\"type\": \"ref/prompt\", \"name\":"
            + " \"test_prompt_with_arguments\"}, \"argument\": {\"name\": \"arg1\", \"value\": \"pa\"}}";

    @TempDir
    Path folder;
    private GatewayTestBed bed;
    private final List<TaskHost> hosts = new ArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        bed = new GatewayTestBed(folder);
        bed.console().store().servers().add(McpPeers.scenarioTools(folder, "scenarios"),
                bed.console().localUser());
        bed.console().store().settings().setServerApprovalBound("scenarios", false, bed.console().localUser());
        bed.console().gateway().profiles().add(bed.console().localUser(), "watch", List.of("scenarios"), List.of(),
                "local", false, null, null);
    }

    @AfterEach
    void tearDown() throws Exception {
        for (TaskHost host : hosts) {
            host.close();
        }
        bed.close();
    }

    @Test
    void eachSubscribedSessionHearsTheServersUpdatesUntilItUnsubscribesAndEachUseIsRecorded() throws Exception {
        try (HttpGatewayProcess gateway = listen("watch")) {
            TaskHost first = host(gateway, "test_simple_text");
            TaskHost second = host(gateway, "test_simple_text");

            first.send(subscribe("subscribe"));
            assertThat(first.next("answer").path("answer").toString()).isEqualTo("{}");
            assertThat(first.next("updated").path("updated").asText()).isEqualTo(WATCHED);
            second.send(subscribe("subscribe"));
            assertThat(second.next("answer").path("answer").toString()).isEqualTo("{}");
            assertThat(second.next("updated").path("updated").asText()).isEqualTo(WATCHED);
            first.send(subscribe("unsubscribe"));
            assertThat(first.next("answer").path("answer").toString()).isEqualTo("{}");
            // an update already on its way when the answer left may still arrive: let two more pass first
            second.next("updated");
            second.next("updated");
            first.taken("updated");
            second.next("updated");
            second.next("updated");
            assertThat(first.taken("updated")).as("updates after unsubscribing").isEmpty();

            first.send(ASK_PA);
            JsonNode completion = first.next("answer").path("answer").path("completion");
            assertThat(completion.path("values")).extracting(JsonNode::asText)
                    .containsExactly("paris", "park", "party");

            await().atMost(10, TimeUnit.SECONDS).until(() -> uses().size() == 4);
            assertThat(uses()).extracting(GovernanceEvent::type, GovernanceEvent::toolName, GovernanceEvent::detail)
                    .containsExactlyInAnyOrder(tuple(EventType.RESOURCE_SUBSCRIBED, "scenarios", null),
                            tuple(EventType.RESOURCE_SUBSCRIBED, "scenarios", null),
                            tuple(EventType.RESOURCE_UNSUBSCRIBED, "scenarios", null),
                            tuple(EventType.COMPLETION_ASKED, "scenarios", "test_prompt_with_arguments"));
            assertThat(uses().toString()).doesNotContain(WATCHED).doesNotContain("\"pa\"");
        }
    }

    @Test
    void aProfileThatDoesNotOfferTheServersToolsRefusesItsSubscriptionsAndCompletionsAsUnknown() throws Exception {
        bed.console().gateway().profiles().add(bed.console().localUser(), "files", List.of("docs"), List.of(),
                "local", false, null, null);
        JsonNode refused;
        JsonNode unknown;
        try (HttpGatewayProcess gateway = listen("files")) {
            TaskHost files = host(gateway, "read_text_file");

            files.send(subscribe("subscribe"));
            refused = files.next("error").path("error");
            files.send(ASK_PA);
            unknown = files.next("error").path("error");
        }

        assertThat(refused.path("code").asInt()).isEqualTo(-32602);
        assertThat(refused.path("message").asText()).contains("no resource \"" + WATCHED + "\" is offered here");
        assertThat(unknown.path("code").asInt()).isEqualTo(-32602);
        assertThat(unknown.path("message").asText())
                .contains("no prompt \"test_prompt_with_arguments\" is offered here");
        assertThat(uses()).isEmpty();
    }

    @Test
    void theServersProgressAndLogMessagesDuringATasksCallReachTheHostTiedToTheTask() throws Exception {
        try (HttpGatewayProcess gateway = listen("watch")) {
            TaskHost host = host(gateway, "test_tool_with_progress");

            host.send("{\"op\": \"stream\", \"tool\": \"test_tool_with_progress\", \"arguments\": {}}");
            String progressTask = host.next("created").path("created").path("taskId").asText();
            host.next("result");
            host.send("{\"op\": \"stream\", \"tool\": \"test_tool_with_logging\", \"arguments\": {}}");
            String loggingTask = host.next("created").path("created").path("taskId").asText();
            host.next("result");

            List<JsonNode> progress = List.of(host.next("progress"), host.next("progress"), host.next("progress"));
            assertThat(progress).extracting(line -> line.path("progress").path("progress").asInt())
                    .containsExactly(0, 50, 100);
            assertThat(progress).allSatisfy(line -> assertThat(line.path("progress").path("_meta")
                    .path(HostTasks.RELATED_TASK).path("taskId").asText()).isEqualTo(progressTask));
            List<JsonNode> logs = List.of(host.next("log"), host.next("log"), host.next("log"));
            assertThat(logs).extracting(line -> line.path("log").path("data").asText())
                    .containsExactly("Tool execution started", "Tool processing data", "Tool execution completed");
            assertThat(logs).allSatisfy(line -> assertThat(line.path("log").path("_meta")
                    .path(HostTasks.RELATED_TASK).path("taskId").asText()).isEqualTo(loggingTask));
        }
    }

    /** {@code countersign gateway --profile PROFILE --listen 127.0.0.1:0} on the bed's store. */
    private HttpGatewayProcess listen(String profile) throws Exception {
        List<String> command = new ArrayList<>(List.of(GatewayHost.javaCommand()));
        command.addAll(GatewayHost.gatewayArguments(folder, bed.db(), profile, "--listen", "127.0.0.1:0"));
        return HttpGatewayProcess.start(command);
    }

    /** A host of the gateway, once the gateway offers the tool. */
    private TaskHost host(HttpGatewayProcess gateway, String tool) throws Exception {
        TaskHost host = TaskHost.over(gateway, tool, folder.resolve("host-" + hosts.size() + ".log"));
        hosts.add(host);
        assertThat(host.next("tools").path("tools").toString()).contains(tool);
        return host;
    }

    private static String subscribe(String op) {
        return "{\"op\": \"" + op + "\", \"uri\": \"" + WATCHED + "\"}";
    }

    private List<GovernanceEvent> uses() {
        return bed.console().store().events().page(EventFilter.all().ofTypes(Set.of(EventType.RESOURCE_SUBSCRIBED,
                EventType.RESOURCE_UNSUBSCRIBED, EventType.COMPLETION_ASKED)), PageRequest.first(20)).events();
    }
}
