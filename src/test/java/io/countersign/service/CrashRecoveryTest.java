package io.countersign.service;

import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.engine.state.RunStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A decider in a child JVM is killed with SIGKILL at random points, again and again, each time replaced by a fresh
 * child that first recovers what its predecessor left. Afterwards no approved call has executed twice, no committed
 * decision is lost, and every run waits, finished, or is flagged "outcome unknown".
 */
class CrashRecoveryTest {
    private static final int KILLS = 50;
    /** After the child was let go: long enough to land in recovery, in starts and in decisions. */
    private static final int MAX_KILL_DELAY_MILLIS = 1000;
    private static final int STANDBYS = 2;
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    Path folder;

    @BeforeAll
    static void archiveTheChildsClasses(@TempDir Path scratch) throws Exception {
        ChildJvm.shareClassesOf(CrashingDecider.class, scratch.resolve("store.db").toString(),
                scratch.resolve("ledger.txt").toString(), scratch.resolve("decisions.txt").toString(),
                scratch.resolve("recoveries.txt").toString(), "warm-up");
    }

    @Test
    void killedDecidersNeverRunAnApprovedCallTwiceNorLoseACommittedDecision() throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        // Children open the store ahead of their turn, while the one before them works: a cycle then costs
        // little more than the kill delay. They recover only once let go, when their predecessor is dead.
        Deque<ChildJvm> standing = new ArrayDeque<>();
        for (int i = 0; i < STANDBYS; i++) {
            standing.add(decider("standby"));
        }
        for (int kill = 0; kill < KILLS; kill++) {
            ChildJvm active = standing.remove();
            standing.add(decider("standby"));
            active.awaitLine("ready", START_TIMEOUT);
            active.send("go");
            Thread.sleep(random.nextInt(MAX_KILL_DELAY_MILLIS));
            assertThat(active.alive()).as("the decider ended on its own (seed %d): %s", seed, active.errors())
                    .isTrue();
            active.kill();
        }
        for (ChildJvm child : standing) {
            child.close();
        }
        decider("recover-only").awaitSuccess(START_TIMEOUT);

        Outcome outcome = outcome();
        System.out.printf("crash test (seed %d): %d kills, %d runs %s, %d decisions, %d carried out at a restart,"
                        + " %d executions%n", seed, KILLS, outcome.runs.size(), outcome.statusCounts(),
                outcome.decisions.size(), lines("recoveries.txt").size(), lines("ledger.txt").size());
        assertNoCallRanTwice();
        assertEveryRunWaitsFinishedOrIsFlagged(outcome);
        assertNoCommittedDecisionIsLost(outcome);
        assertCallsRanExactlyAsFarAsEachRunGot(outcome);
        assertEachDecisionHasOneEvent(outcome);
    }

    private ChildJvm decider(String mode) throws Exception {
        return ChildJvm.start(CrashingDecider.class, folder.resolve("errors.txt"), folder.resolve("store.db")
                .toString(), folder.resolve("ledger.txt").toString(), folder.resolve("decisions.txt").toString(),
                folder.resolve("recoveries.txt").toString(), mode);
    }

    private void assertNoCallRanTwice() throws Exception {
        assertThat(LedgerTool.executions(folder.resolve("ledger.txt")))
                .allSatisfy((call, count) -> assertThat(count).as("executions of %s", call).isEqualTo(1));
    }

    private static void assertEveryRunWaitsFinishedOrIsFlagged(Outcome outcome) {
        assertThat(outcome.runs.values()).allSatisfy(run -> assertThat(run.status().finished()
                || run.status().waiting() && run.paused()
                || run.status() == RunStatus.RUNNING && run.flagged()).as("%s", run).isTrue());
    }

    /** A decision row stays only for a pause that was decided: its run went past it, or is flagged on it. */
    private void assertNoCommittedDecisionIsLost(Outcome outcome) throws Exception {
        for (Decision decision : outcome.decisions) {
            RunRow run = outcome.runs.get(decision.runId());
            assertThat(run.status().finished()
                    || run.status().waiting() && run.pauseNumber() > decision.pauseNumber()
                    || run.status() == RunStatus.RUNNING && run.flagged())
                    .as("%s of %s", decision, run).isTrue();
        }
        Set<String> committed = new HashSet<>();
        outcome.decisions.forEach(decision -> committed.add(decision.runId() + " " + decision.digest()));
        assertThat(committed).as("decisions reported done").containsAll(lines("decisions.txt"));
    }

    /** A completed run ran its three calls once each; a run waiting on its second pause ran the first only. */
    private void assertCallsRanExactlyAsFarAsEachRunGot(Outcome outcome) throws Exception {
        Set<String> executed = new HashSet<>(lines("ledger.txt"));
        for (RunRow run : outcome.runs.values()) {
            List<String> calls = List.of(run.id() + " first", run.id() + " second", run.id() + " third");
            if (run.status() == RunStatus.COMPLETED) {
                assertThat(executed).containsAll(calls);
            } else if (run.status().waiting()) {
                assertThat(calls.stream().filter(executed::contains).count()).as("%s", run)
                        .isEqualTo(run.pauseNumber() == 1 ? 0 : 1);
            }
        }
    }

    /** Every decision left in the store was carried out, by its decider's process or at a restart: once each. */
    private static void assertEachDecisionHasOneEvent(Outcome outcome) {
        Map<String, Integer> decisionsByRun = new TreeMap<>();
        outcome.decisions.forEach(decision -> decisionsByRun.merge(decision.runId(), 1, Integer::sum));
        assertThat(outcome.decisionEventsByRun).as("approval_decided events by run")
                .isEqualTo(decisionsByRun);
    }

    private List<String> lines(String file) throws Exception {
        Path path = folder.resolve(file);
        return Files.exists(path) ? Files.readAllLines(path) : List.of();
    }

    private record RunRow(String id, RunStatus status, int pauseNumber, boolean paused, boolean flagged) {
    }

    private record Decision(String runId, int pauseNumber, String digest) {
    }

    private record Outcome(Map<String, RunRow> runs, List<Decision> decisions,
                           Map<String, Integer> decisionEventsByRun) {
        Map<RunStatus, Integer> statusCounts() {
            Map<RunStatus, Integer> counts = new TreeMap<>();
            runs.values().forEach(run -> counts.merge(run.status(), 1, Integer::sum));
            return counts;
        }
    }

    /** What the store holds, read past it. */
    private Outcome outcome() throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + folder.resolve("store.db"));
             Statement statement = connection.createStatement()) {
            Map<String, RunRow> runs = new HashMap<>();
            try (ResultSet rows = statement.executeQuery("SELECT id, status, pause_number, paused_state IS NOT NULL,"
                    + " outcome_unknown IS NOT NULL FROM runs")) {
                while (rows.next()) {
                    runs.put(rows.getString(1), new RunRow(rows.getString(1), RunStatus.fromCode(rows.getString(2)),
                            rows.getInt(3), rows.getBoolean(4), rows.getBoolean(5)));
                }
            }
            List<Decision> decisions = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery("SELECT run_id, pause_number, digest FROM decisions")) {
                while (rows.next()) {
                    decisions.add(new Decision(rows.getString(1), rows.getInt(2), rows.getString(3)));
                }
            }
            Map<String, Integer> events = new TreeMap<>();
            try (ResultSet rows = statement.executeQuery("SELECT run_id, COUNT(*) FROM governance_events"
                    + " WHERE event_type = 'approval_decided' GROUP BY run_id")) {
                while (rows.next()) {
                    events.put(rows.getString(1), rows.getInt(2));
                }
            }
            return new Outcome(runs, decisions, events);
        }
    }
}
