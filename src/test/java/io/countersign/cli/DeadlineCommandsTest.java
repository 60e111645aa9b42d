package io.countersign.cli;

import static org.assertj.core.api.Assertions.assertThat;
import com.fasterxml.jackson.databind.JsonNode;
import io.countersign.engine.agent.DeadlineAction;
import io.countersign.engine.agent.DeadlineRule;
import io.countersign.engine.agent.DecisionDeadlines;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.store.StoreLocation;
import io.countersign.store.StoredAgentConfiguration;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code inbox} and {@code show} with deadlines, {@code inbox --sort deadline}, {@code extend}, {@code deadlines --once}. */
class DeadlineCommandsTest {
    @TempDir
    Path folder;
    CommandProcess countersign;
    String runId;

    @BeforeEach
    void aRunWaitsWithADeadline() {
        Path file = folder.resolve("countersign.db");
        countersign = new CommandProcess(folder, file.toString());
        try (CountersignRuntime runtime = CountersignRuntime.open(new StoreLocation.SqliteFile(file))) {
            runtime.localUser();
            runtime.ensureDemo(folder);
            StoredAgentConfiguration web = runtime.store().configurations().findAgent("web-research").orElseThrow();
            runtime.store().configurations().saveAgent(new StoredAgentConfiguration(web.name(), web.systemPrompt(),
                    web.modelName(), web.toolGroups(), web.allowedTools(), web.workspace(), web.toolCallPolicies(),
                    web.maxRounds(), web.fourEyes(), new DecisionDeadlines(new DeadlineRule(Duration.ofMinutes(30),
                    DeadlineAction.DENY), Map.of(), null)));
        }
        CommandProcess.Result started = countersign.runHere("run", "--agent", "web-research", "--prompt",
                "Check the changelog");
        assertThat(started.exitCode()).as(started.err()).isZero();
        runId = started.json().get("runId").asText();
    }

    @Test
    void inboxSortedByDeadlinePutsTheCardWithADeadlineFirstAndSaysWhatIsLeft() {
        CommandProcess.Result inbox = countersign.runHere("inbox", "--sort", "deadline");
        assertThat(inbox.exitCode()).as(inbox.err()).isZero();
        JsonNode first = inbox.json().get(0);
        assertThat(first.get("runId").asText()).isEqualTo(runId);
        assertThat(first.get("deadline").get("onDeadline").asText()).isEqualTo("deny");
        assertThat(first.get("deadline").get("escalated").asBoolean()).isFalse();
        assertThat(first.get("deadline").get("secondsLeft").asLong()).isBetween(1700L, 1800L);
        assertThat(first.get("deadline").get("left").asText()).matches("(29|30)m \\d\\ds");
        assertThat(inbox.json().get(1).get("deadline").isNull()).isTrue();

        CommandProcess.Result table = countersign.runHere("--format", "table", "inbox", "--sort", "deadline");
        assertThat(table.out()).contains("deadline").contains("(deny)");
    }

    @Test
    void agentsListsTheDeadlineFields() {
        CommandProcess.Result agents = countersign.runHere("agents");
        assertThat(agents.exitCode()).as(agents.err()).isZero();
        JsonNode web = null;
        for (JsonNode agent : agents.json()) {
            if (agent.get("name").asText().equals("web-research")) {
                web = agent;
            }
        }
        assertThat(web).isNotNull();
        assertThat(web.get("decisionDeadline").asText()).isEqualTo("30m");
        assertThat(web.get("onDeadline").asText()).isEqualTo("deny");
    }

    @Test
    void unknownSortIsABadUsageNamingTheChoices() {
        CommandProcess.Result inbox = countersign.runHere("inbox", "--sort", "soon");
        assertThat(inbox.exitCode()).isEqualTo(2);
        assertThat(inbox.err()).contains("--sort must be waiting or deadline, got \"soon\"");
    }

    @Test
    void extendOnceThenRefusedWithWhoExtendedIt() {
        CommandProcess.Result first = countersign.runHere("extend", runId);
        assertThat(first.exitCode()).as(first.err()).isZero();
        assertThat(first.json().get("result").asText()).isEqualTo("extended");
        assertThat(first.json().get("deadline").get("secondsLeft").asLong()).isBetween(3500L, 3600L);
        String me = first.json().get("deadline").get("extendedBy").asText();

        CommandProcess.Result second = countersign.runHere("extend", runId);
        assertThat(second.exitCode()).isEqualTo(3);
        assertThat(second.err().lines().toList()).singleElement().asString()
                .contains("already extended by " + me).contains("extends only once");
        CommandProcess.Result show = countersign.runHere("show", runId);
        assertThat(show.json().get("card").get("deadline").get("extendedBy").asText()).isEqualTo(me);
    }

    /** As if the half hour had passed: the stored deadline is moved back instead. */
    private void overdue() throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + folder.resolve("countersign.db"));
             PreparedStatement update = connection.prepareStatement("UPDATE runs SET deadline = deadline - ?"
                     + " WHERE id = ?")) {
            update.setLong(1, Duration.ofMinutes(31).toNanos());
            update.setString(2, runId);
            assertThat(update.executeUpdate()).isEqualTo(1);
        }
    }

    @Test
    void aWorkerStartingOnTheStoreAppliesTheOverdueDeadline() throws Exception {
        overdue();
        CommandProcess.Result worker = countersign.runHere("worker", "--drain");
        assertThat(worker.exitCode()).as(worker.err()).isZero();
        CommandProcess.Result show = countersign.runHere("show", runId);
        assertThat(show.json().get("status").asText()).isNotEqualTo("waiting_for_approval");
        assertThat(show.json().get("events").toString()).contains("approval_expired");
    }

    @Test
    void deadlinesOnceDeniesTheOverdueCardAndTheRunGoesOn() throws Exception {
        CommandProcess.Result nothing = countersign.runHere("deadlines", "--once");
        assertThat(nothing.exitCode()).as(nothing.err()).isZero();
        assertThat(nothing.json()).isEmpty();

        overdue();
        CommandProcess.Result applied = countersign.runHere("deadlines", "--once");
        assertThat(applied.exitCode()).as(applied.err()).isZero();
        assertThat(applied.json()).singleElement().satisfies(each -> {
            assertThat(each.get("runId").asText()).isEqualTo(runId);
            assertThat(each.get("outcome").asText()).isEqualTo("denied");
        });
        CommandProcess.Result show = countersign.runHere("show", runId);
        assertThat(show.json().get("status").asText()).isNotEqualTo("waiting_for_approval");
        assertThat(show.json().get("events").toString()).contains("approval_expired");
        assertThat(countersign.runHere("deadlines", "--once").json()).isEmpty();
    }
}
