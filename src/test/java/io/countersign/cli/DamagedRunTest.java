package io.countersign.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Actor;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.port.RunSummary;
import io.countersign.engine.port.WaitingRun;
import io.countersign.engine.state.DamagedRunException;
import io.countersign.engine.state.RunStatus;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.store.StoreLocation;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One run whose stored paused state is damaged among ten good ones, in a real SQLite file: the inbox lists all
 * eleven with the damaged one marked, {@code show} and {@code decide} of it refuse in one sentence naming the run
 * and write nothing, and {@code settle --fail} ends it. The list of recent runs marks it the same way. A card whose
 * arguments were rewritten behind Countersign is refused as that, not as a card that changed.
 */
class DamagedRunTest {
    private static final List<String> AGENTS = List.of("release-notes-bot", "intake-form", "web-research");

    @TempDir
    Path folder;
    CommandProcess countersign;
    String damagedRun;

    @BeforeEach
    void elevenWaitingRuns() throws SQLException {
        countersign = new CommandProcess(folder, file().toString());
        try (CountersignRuntime runtime = CountersignRuntime.open(new StoreLocation.SqliteFile(file()))) {
            runtime.localUser();
            runtime.ensureDemo(folder);
            Actor maria = runtime.user("maria");
            for (int i = runtime.runs().inbox(maria).size(); i < 11; i++) {
                runtime.runs().start(maria, AGENTS.get(i % AGENTS.size()), "Task " + i, false);
            }
            List<WaitingRun> inbox = runtime.runs().inbox(maria);
            assertThat(inbox).hasSize(11);
            damagedRun = inbox.get(4).runId();
        }
    }

    private Path file() {
        return folder.resolve("countersign.db");
    }

    private void damage(String pausedState) throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file());
             PreparedStatement update = connection.prepareStatement("UPDATE runs SET paused_state = ? WHERE id = ?")) {
            update.setString(1, pausedState);
            update.setString(2, damagedRun);
            assertThat(update.executeUpdate()).isOne();
        }
    }

    /** Every row of the runs and decisions, to see that a refusal wrote nothing. */
    private List<String> everyRow() throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file())) {
            for (String table : List.of("runs", "decisions", "governance_events")) {
                try (ResultSet found = connection.createStatement().executeQuery("SELECT * FROM " + table)) {
                    while (found.next()) {
                        StringBuilder row = new StringBuilder(table);
                        for (int column = 1; column <= found.getMetaData().getColumnCount(); column++) {
                            row.append('|').append(found.getString(column));
                        }
                        rows.add(row.toString());
                    }
                }
            }
        }
        return rows;
    }

    private static void assertRefusedInOneSentence(CommandProcess.Result result, String runId) {
        assertThat(result.exitCode()).as(result.err()).isEqualTo(Cli.REFUSED);
        assertThat(result.out()).isEmpty();
        assertThat(result.err().lines().toList()).singleElement().asString()
                .startsWith("countersign: run " + runId + " cannot be shown or decided: its stored state is damaged")
                .contains("nothing was changed", "countersign settle --fail " + runId)
                .doesNotContain("internal error", "Exception");
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"format\": 3, \"transcript\": [", "{\"shape\": \"not a paused state\"}"})
    void inboxListsTheOthersAndMarksTheDamagedOne(String damagedState) throws SQLException {
        damage(damagedState);

        CommandProcess.Result inbox = countersign.runHere("inbox");

        assertThat(inbox.exitCode()).as(inbox.err()).isZero();
        assertThat(inbox.json()).hasSize(11);
        List<JsonNode> damaged = new ArrayList<>();
        inbox.json().forEach(run -> {
            if (run.has("damage")) {
                damaged.add(run);
            } else {
                assertThat(run.path("digest").asText()).hasSize(64);
            }
        });
        assertThat(damaged).singleElement().satisfies(run -> {
            assertThat(run.path("runId").asText()).isEqualTo(damagedRun);
            assertThat(run.path("damage").asText()).startsWith("damaged paused state");
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"not json at all", "{\"shape\": \"not a paused state\"}"})
    void showAndDecideOfTheDamagedRunRefuseAndWriteNothing(String damagedState) throws SQLException {
        damage(damagedState);
        List<String> before = everyRow();

        assertRefusedInOneSentence(countersign.runHere("show", damagedRun), damagedRun);
        assertRefusedInOneSentence(countersign.runHere("decide", damagedRun, "--digest", "0".repeat(64),
                "--approve-all"), damagedRun);
        assertRefusedInOneSentence(countersign.runHere("settle", damagedRun, "--retry"), damagedRun);

        assertThat(everyRow()).isEqualTo(before);
    }

    @Test
    void serviceInboxListsARunWhoseSummaryIsDamagedAsDamaged() throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file());
             PreparedStatement update = connection.prepareStatement("UPDATE runs SET digest = NULL, waiting_tools = ''"
                     + " WHERE id = ?")) {
            update.setString(1, damagedRun);
            update.executeUpdate();
        }
        try (CountersignRuntime runtime = CountersignRuntime.open(new StoreLocation.SqliteFile(file()))) {
            List<WaitingRun> inbox = runtime.runs().inbox(runtime.user("maria"));

            assertThat(inbox).hasSize(11);
            assertThat(inbox).filteredOn(WaitingRun::damaged).singleElement().satisfies(run -> {
                assertThat(run.runId()).isEqualTo(damagedRun);
                assertThat(run.damage()).startsWith("damaged inbox summary: digest");
            });
        }
    }

    @Test
    void recentRunsListTheOthersAndMarkTheDamagedOne() throws SQLException {
        damage("not json at all");
        try (CountersignRuntime runtime = CountersignRuntime.open(new StoreLocation.SqliteFile(file()))) {
            List<RunSummary> recent = runtime.runs().recent(runtime.user("maria"), 100);

            // the eleven waiting runs and the demo's completed one
            assertThat(recent).hasSize(everyRow().stream().filter(row -> row.startsWith("runs|")).toList().size())
                    .extracting(RunSummary::status).contains(RunStatus.COMPLETED);
            assertThat(recent).filteredOn(RunSummary::damaged).singleElement().satisfies(run -> {
                assertThat(run.runId()).isEqualTo(damagedRun);
                assertThat(run.status().waiting()).isTrue();
                assertThat(run.damage()).startsWith("damaged paused state: not valid JSON");
            });
        }
    }

    @Test
    void settleFailEndsTheDamagedRunAndTheInboxHasTheTenOthers() throws SQLException {
        damage("{\"shape\": \"not a paused state\"}");

        CommandProcess.Result settled = countersign.runHere("settle", damagedRun, "--fail");

        assertThat(settled.exitCode()).as(settled.err()).isZero();
        assertThat(settled.json().path("status").asText()).isEqualTo("failed");
        assertThat(countersign.runHere("show", damagedRun).json().path("failure").asText())
                .startsWith("damaged_state");
        JsonNode inbox = countersign.runHere("inbox").json();
        assertThat(inbox).hasSize(10);
        assertThat(inbox.findValuesAsText("runId")).doesNotContain(damagedRun);
    }

    /**
     * Rewrites the first call's arguments of a waiting approval card with plain SQL, as someone with the file could:
     * the JSON still decodes, only its digest is not the one recorded at the pause. Returns that run and digest.
     */
    private String[] rewriteArgumentsOfAnApprovalCard() throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file())) {
            String runId;
            String digest;
            String state;
            try (ResultSet row = connection.createStatement().executeQuery("SELECT id, digest, paused_state FROM runs"
                    + " WHERE status = 'waiting_for_approval' ORDER BY id LIMIT 1")) {
                assertThat(row.next()).isTrue();
                runId = row.getString(1);
                digest = row.getString(2);
                state = row.getString(3);
            }
            ObjectNode tree = (ObjectNode)
                    new ObjectMapper().readTree(state);
            ((ObjectNode) tree.path("calls").get(0).path("call")
                    .path("arguments")).put("path", "/home/maria/.ssh/authorized_keys");
            try (PreparedStatement update = connection.prepareStatement(
                    "UPDATE runs SET paused_state = ? WHERE id = ?")) {
                update.setString(1, tree.toString());
                update.setString(2, runId);
                assertThat(update.executeUpdate()).isOne();
            }
            return new String[] {runId, digest};
        }
    }

    @Test
    void aCardRewrittenBehindCountersignIsRefusedAsSuchAndNotAsStale() throws Exception {
        String[] tampered = rewriteArgumentsOfAnApprovalCard();
        String runId = tampered[0];
        List<String> before = everyRow();

        // on the digest the inbox lists (the one recorded at the pause), and again: the same sentence each time
        for (int attempt = 0; attempt < 2; attempt++) {
            CommandProcess.Result decided = countersign.runHere("decide", runId, "--digest", tampered[1],
                    "--approve-all");
            assertThat(decided.exitCode()).as(decided.err()).isEqualTo(Cli.REFUSED);
            assertThat(decided.out()).isEmpty();
            assertThat(decided.err().lines().toList()).singleElement().isEqualTo("countersign: run " + runId
                    + " cannot be shown or decided: its card was changed behind Countersign's back since it paused,"
                    + " and no longer matches the digest recorded then; nothing was changed; end it with:"
                    + " countersign settle --fail " + runId);
        }
        assertThat(everyRow()).isEqualTo(before);

        CommandProcess.Result settled = countersign.runHere("settle", runId, "--fail");
        assertThat(settled.exitCode()).as(settled.err()).isZero();
        assertThat(settled.json().path("status").asText()).isEqualTo("failed");
    }

    @Test
    void theServiceRefusesToDecideARewrittenCardAndTheRunsListNamesIt() throws Exception {
        String[] tampered = rewriteArgumentsOfAnApprovalCard();
        String runId = tampered[0];
        try (CountersignRuntime runtime = CountersignRuntime.open(new StoreLocation.SqliteFile(file()))) {
            Actor maria = runtime.user("maria");

            assertThatThrownBy(() -> runtime.runs().decide(maria, runId, tampered[1],
                    List.of(Decision.CallVerdict.approve(0))))
                    .isInstanceOf(DamagedRunException.class)
                    .hasMessage("run " + runId + " cannot be shown or decided: its card was changed behind"
                            + " Countersign's back since it paused, and no longer matches the digest recorded then;"
                            + " nothing was changed");
            assertThat(runtime.runs().inbox(maria)).extracting(WaitingRun::runId).contains(runId);
            assertThat(runtime.runs().recent(maria, 100)).filteredOn(RunSummary::damaged).singleElement()
                    .satisfies(run -> {
                        assertThat(run.runId()).isEqualTo(runId);
                        assertThat(run.damage()).isEqualTo("card changed behind Countersign's back since it paused");
                    });
        }
    }
}
