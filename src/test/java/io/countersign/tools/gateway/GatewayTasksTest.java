package io.countersign.tools.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.countersign.cli.Cli;
import io.countersign.engine.Json;
import io.countersign.engine.event.EventFilter;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.PageRequest;
import io.countersign.engine.port.WaitingRun;
import java.io.IOException;
import java.nio.file.Files;
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
 * The gateway's MCP tasks with the TypeScript SDK's client and its task API ({@code task-host.mjs}), over
 * Streamable HTTP: a call that needs a person is answered at once with a task that stays {@code working} while the
 * card waits, however long the host polls; a person's decision, taken in another process, completes it once; the
 * host's {@code tasks/cancel} withdraws the card through the claim a decision makes; a host that reconnects polls
 * the same task; a gateway of another profile never sees it.
 */
class GatewayTasksTest {
    /**
     * How many of the host's polls (one a second) the card waits through before it is approved: long enough that
     * the call outlasts several requests, short for the suite; {@code -Dcountersign.test.taskPolls=180} waits
     * three minutes.
     */
    private static final int POLLS = Integer.getInteger("countersign.test.taskPolls", 3);

    @TempDir
    Path folder;
    private GatewayTestBed bed;
    private final List<TaskHost> hosts = new ArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        bed = new GatewayTestBed(folder);
    }

    @AfterEach
    void tearDown() throws Exception {
        for (TaskHost host : hosts) {
            host.close();
        }
        bed.close();
    }

    @Test
    void aTaskWaitsAsACardThroughThePollsAndCompletesOnceWhenApprovedFromAnotherProcess() throws Exception {
        TaskHost host = host(bed.listen());
        Path plan = bed.workspace().resolve("plan.txt");

        host.send("{\"op\": \"stream\", \"tool\": \"disk.write_file\", \"arguments\": " + write(plan, "step one")
                + "}");

        JsonNode created = host.next("created").path("created");
        assertThat(created.path("status").asText()).isEqualTo("working");
        String taskId = created.path("taskId").asText();
        WaitingRun card = bed.awaitCard();
        assertThat(taskId).isEqualTo(card.runId() + "/task-1");
        // the polls before the card was recorded say the call is being checked
        while (!host.next("status").path("status").path("statusMessage").asText()
                .contains("waiting for a person's decision")) {
            assertThat(plan).doesNotExist();
        }
        for (int poll = 0; poll < POLLS; poll++) {
            JsonNode status = host.next("status").path("status");
            assertThat(status.path("status").asText()).isEqualTo("working");
            assertThat(status.path("statusMessage").asText()).contains("waiting for a person's decision on run "
                    + card.runId());
        }
        assertThat(plan).doesNotExist();

        GatewayTestBed.CliOutcome approved = bed.cli("decide", card.runId(), "--digest", card.digest(),
                "--approve-all");

        assertThat(approved.exitCode()).as(approved.err()).isZero();
        JsonNode result = host.next("result").path("result");
        assertThat(result.path("isError").asBoolean()).as(result.toString()).isFalse();
        assertThat(result.path("_meta").path(HostTasks.RELATED_TASK).path("taskId").asText()).isEqualTo(taskId);
        assertThat(plan).hasContent("step one");
        JsonNode notified = host.next("notified").path("notified");
        assertThat(notified.path("taskId").asText()).isEqualTo(taskId);
        assertThat(notified.path("status").asText()).isEqualTo("completed");
        Files.writeString(plan, "changed by hand");
        host.send("{\"op\": \"result\", \"taskId\": \"" + taskId + "\"}");
        assertThat(host.next("answer").path("answer").path("isError").asBoolean()).isFalse();
        host.send("{\"op\": \"list\"}");
        assertThat(host.next("answer").path("answer").path("tasks")).singleElement()
                .satisfies(task -> assertThat(task.path("status").asText()).isEqualTo("completed"));
        assertThat(plan).hasContent("changed by hand");
        GatewayTestBed.CliOutcome again = bed.cli("decide", card.runId(), "--digest", card.digest(),
                "--approve-all");
        assertThat(again.exitCode()).isEqualTo(Cli.REFUSED);
    }

    @Test
    void overStdioATaskWaitsAsACardAndCompletesOnceWhenApproved() throws Exception {
        List<String> gateway = new ArrayList<>(List.of(GatewayHost.javaCommand()));
        gateway.addAll(bed.gatewayArguments());
        TaskHost host = TaskHost.overStdio(gateway, "disk.write_file", folder.resolve("stdio-host.log"));
        hosts.add(host);
        assertThat(host.next("tools").path("tools").toString()).contains("disk.write_file");
        Path plan = bed.workspace().resolve("stdio.txt");

        host.send("{\"op\": \"stream\", \"tool\": \"disk.write_file\", \"arguments\": " + write(plan, "by stdio")
                + "}");

        String taskId = host.next("created").path("created").path("taskId").asText();
        WaitingRun card = bed.awaitCard();
        assertThat(taskId).isEqualTo(card.runId() + "/task-1");
        assertThat(host.next("status").path("status").path("status").asText()).isEqualTo("working");
        assertThat(plan).doesNotExist();
        GatewayTestBed.CliOutcome approved = bed.cli("decide", card.runId(), "--digest", card.digest(),
                "--approve-all");
        assertThat(approved.exitCode()).as(approved.err()).isZero();
        JsonNode result = host.next("result").path("result");
        assertThat(result.path("isError").asBoolean()).as(result.toString()).isFalse();
        assertThat(result.path("_meta").path(HostTasks.RELATED_TASK).path("taskId").asText()).isEqualTo(taskId);
        assertThat(plan).hasContent("by stdio");
        assertThat(host.next("notified").path("notified").path("status").asText()).isEqualTo("completed");
    }

    @Test
    void aCancelledTaskLeavesTheInboxAndALaterApprovalIsRefusedWithNothingWritten() throws Exception {
        TaskHost host = host(bed.listen());
        Path late = bed.workspace().resolve("late.txt");
        host.send("{\"op\": \"stream\", \"tool\": \"disk.write_file\", \"arguments\": " + write(late, "too late")
                + "}");
        String taskId = host.next("created").path("created").path("taskId").asText();
        WaitingRun card = bed.awaitCard();

        host.send("{\"op\": \"cancel\", \"taskId\": \"" + taskId + "\"}");

        assertThat(host.next("answer").path("answer").path("status").asText()).isEqualTo("cancelled");
        await().atMost(20, TimeUnit.SECONDS).until(() -> bed.console().runs().inbox(GatewayTestBed.RITA).isEmpty());
        GatewayTestBed.CliOutcome approved = bed.cli("decide", card.runId(), "--digest", card.digest(),
                "--approve-all");
        assertThat(approved.exitCode()).as(approved.err()).isEqualTo(Cli.REFUSED);
        assertThat(approved.err().lines().toList()).singleElement().asString()
                .contains("run " + card.runId() + ": the host cancelled this call at ")
                .endsWith("; nothing was executed");
        assertThat(bed.console().store().events().page(EventFilter.all().withRunId(card.runId())
                .ofTypes(Set.of(EventType.CALL_WITHDRAWN)), PageRequest.first(10)).events()).singleElement()
                .satisfies(event -> assertThat(event.reasonCode()).isEqualTo("host_cancelled"));
        assertThat(host.next("streamError").path("streamError").path("message").asText()).contains("cancelled");
        host.send("{\"op\": \"cancel\", \"taskId\": \"" + taskId + "\"}");
        JsonNode twice = host.next("error").path("error");
        assertThat(twice.path("code").asInt()).isEqualTo(-32602);
        assertThat(twice.path("message").asText()).contains("is already cancelled and cannot be cancelled");
        host.send("{\"op\": \"get\", \"taskId\": \"" + taskId + "\"}");
        assertThat(host.next("answer").path("answer").path("status").asText()).isEqualTo("cancelled");
        assertThat(late).doesNotExist();
    }

    @Test
    void aHostThatReconnectsPollsTheSameTaskToItsResult() throws Exception {
        TaskHost host = host(bed.listen());
        Path plan = bed.workspace().resolve("plan.txt");
        host.send("{\"op\": \"stream\", \"tool\": \"disk.write_file\", \"arguments\": " + write(plan, "step two")
                + "}");
        String taskId = host.next("created").path("created").path("taskId").asText();
        WaitingRun card = bed.awaitCard();

        host.send("{\"op\": \"reconnect\"}");
        host.next("session");
        host.send("{\"op\": \"get\", \"taskId\": \"" + taskId + "\"}");
        assertThat(host.next("answer").path("answer").path("status").asText()).isEqualTo("working");
        assertThat(bed.console().runs().inbox(GatewayTestBed.RITA)).extracting(WaitingRun::runId)
                .containsExactly(card.runId());
        GatewayTestBed.CliOutcome approved = bed.cli("decide", card.runId(), "--digest", card.digest(),
                "--approve-all");
        assertThat(approved.exitCode()).as(approved.err()).isZero();

        host.send("{\"op\": \"result\", \"taskId\": \"" + taskId + "\"}");

        JsonNode result = host.next("answer").path("answer");
        assertThat(result.path("isError").asBoolean()).as(result.toString()).isFalse();
        assertThat(plan).hasContent("step two");
        host.send("{\"op\": \"get\", \"taskId\": \"" + taskId + "\"}");
        assertThat(host.next("answer").path("answer").path("status").asText()).isEqualTo("completed");
    }

    @Test
    void aTaskOutlivesItsGatewayTheNextGatewayCarriesItOutAndTheOneAfterServesItsResultFromTheStore()
            throws Exception {
        HttpGatewayProcess first = bed.listen();
        TaskHost host = host(first);
        Path plan = bed.workspace().resolve("plan.txt");
        host.send("{\"op\": \"stream\", \"tool\": \"disk.write_file\", \"arguments\": " + write(plan, "step three")
                + "}");
        String taskId = host.next("created").path("created").path("taskId").asText();
        WaitingRun card = bed.awaitCard();

        first.close();

        assertThat(bed.console().runs().inbox(GatewayTestBed.RITA)).extracting(WaitingRun::runId)
                .containsExactly(card.runId());
        HttpGatewayProcess second = bed.listen();
        TaskHost reconnected = host(second);
        reconnected.send("{\"op\": \"get\", \"taskId\": \"" + taskId + "\"}");
        JsonNode working = reconnected.next("answer").path("answer");
        assertThat(working.path("status").asText()).isEqualTo("working");
        assertThat(working.path("statusMessage").asText()).isEqualTo("waiting for a person's decision on run "
                + card.runId());
        assertThat(bed.console().runs().card(GatewayTestBed.RITA, card.runId()).orElseThrow().stranded()).isNull();
        GatewayTestBed.CliOutcome approved = bed.cli("decide", card.runId(), "--digest", card.digest(),
                "--approve-all");
        assertThat(approved.exitCode()).as(approved.err()).isZero();

        reconnected.send("{\"op\": \"result\", \"taskId\": \"" + taskId + "\"}");

        JsonNode result = reconnected.next("answer").path("answer");
        assertThat(result.path("isError").asBoolean()).as(result.toString()).isFalse();
        assertThat(plan).hasContent("step three");
        reconnected.send("{\"op\": \"list\"}");
        assertThat(reconnected.next("answer").path("answer").path("tasks")).singleElement()
                .satisfies(task -> assertThat(task.path("status").asText()).isEqualTo("completed"));
        assertThat(bed.console().store().runs().find(card.runId()).orElseThrow().status().waiting()).isFalse();

        second.close();
        TaskHost later = host(bed.listen());
        later.send("{\"op\": \"get\", \"taskId\": \"" + taskId + "\"}");
        assertThat(later.next("answer").path("answer").path("status").asText()).isEqualTo("completed");
        later.send("{\"op\": \"result\", \"taskId\": \"" + taskId + "\"}");
        JsonNode recorded = later.next("answer").path("answer");
        assertThat(recorded.path("isError").asBoolean()).as(recorded.toString()).isFalse();
        assertThat(recorded.path("content").get(0).path("text").asText()).contains("plan.txt");
        assertThat(recorded.path("_meta").path(HostTasks.RELATED_TASK).path("taskId").asText()).isEqualTo(taskId);
    }

    @Test
    void aGatewayOfAnotherProfileCannotSeeTheTaskAndAnUnknownIdIsAnInvalidParam() throws Exception {
        TaskHost host = host(bed.listen());
        host.send("{\"op\": \"stream\", \"tool\": \"disk.write_file\", \"arguments\": "
                + write(bed.workspace().resolve("kept.txt"), "kept") + "}");
        String taskId = host.next("created").path("created").path("taskId").asText();
        bed.awaitCard();
        bed.console().gateway().profiles().add(bed.console().localUser(), "other", List.of("disk"), List.of(),
                "local", false, null, null);
        List<String> command = new ArrayList<>(List.of(GatewayHost.javaCommand()));
        command.addAll(GatewayHost.gatewayArguments(folder, bed.db(), "other", "--listen", "127.0.0.1:0"));
        HttpGatewayProcess other = HttpGatewayProcess.start(command);
        try {
            TaskHost stranger = host(other, "write_file");

            stranger.send("{\"op\": \"get\", \"taskId\": \"" + taskId + "\"}");

            JsonNode refused = stranger.next("error").path("error");
            assertThat(refused.path("code").asInt()).isEqualTo(-32602);
            assertThat(refused.path("message").asText()).contains("no task \"" + taskId + "\"");
            stranger.send("{\"op\": \"list\"}");
            assertThat(stranger.next("answer").path("answer").path("tasks")).isEmpty();
        } finally {
            other.close();
        }
        host.send("{\"op\": \"get\", \"taskId\": \"no-such-task\"}");
        JsonNode unknown = host.next("error").path("error");
        assertThat(unknown.path("code").asInt()).isEqualTo(-32602);
        assertThat(unknown.path("message").asText()).isEqualTo("MCP error -32602: Invalid params: no task"
                + " \"no-such-task\" of this gateway's profile; its result may have expired, or another profile or"
                + " person made it");
    }

    private static String write(Path file, String content) throws IOException {
        return "{\"path\": " + Json.mapper().writeValueAsString(file.toString()) + ", \"content\": \""
                + content + "\"}";
    }

    private TaskHost host(HttpGatewayProcess gateway) throws Exception {
        return host(gateway, "disk.write_file");
    }

    /** A task host of the gateway, started once the gateway offers the tool. */
    private TaskHost host(HttpGatewayProcess gateway, String tool) throws Exception {
        TaskHost host = TaskHost.over(gateway, tool, folder.resolve("host-" + hosts.size() + ".log"));
        hosts.add(host);
        assertThat(host.next("tools").path("tools").toString()).contains(tool);
        return host;
    }
}
