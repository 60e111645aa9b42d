package io.countersign.service;

import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.engine.state.RunStatus;
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
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real processes killed with SIGKILL at each step of a decision's way through the store (decide, claim, intent,
 * execute, outcome, next state; the claim and the intent are one commit, the outcome and the next state are the two
 * sides of the model's call), each time recovered by the next process; and a worker of two threads frozen with
 * SIGSTOP past its lease and let go with SIGCONT, once while a thread waits for the model before its call and once
 * after. Afterwards no call has executed twice, no committed decision is lost or turned into a refusal, and every
 * call whose outcome a kill made unknown is flagged. {@code -Dcrash.trials=N} sets the trials per scenario, taken in
 * turns over its steps or freezes (the bench profile runs 200).
 */
class CrashStepsTest {
    private static final int TRIALS = Integer.getInteger("crash.trials", 6);
    private static final int STANDBYS = 2;
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    /** Past the worker's one-second lease, and shorter than its slow model call. */
    private static final Duration FROZEN = Duration.ofMillis(2000);

    @TempDir
    Path folder;

    @BeforeAll
    static void archiveTheChildsClasses(@TempDir Path scratch) throws Exception {
        ChildJvm.shareClassesOf(SteppedDecider.class, scratch.resolve("store.db").toString(),
                scratch.resolve("ledger.txt").toString(), "warm-up");
    }

    @Test
    void deciderKilledAtEveryStepNeverRunsTheCallTwiceNorLosesTheDecision() throws Exception {
        Map<String, HaltingRuns.Step> haltedAt = new HashMap<>();
        // The store made first: children opening a new file at the same moment may race at its migration.
        decider("recover-only").awaitSuccess(START_TIMEOUT);
        Deque<ChildJvm> standing = new ArrayDeque<>();
        for (int i = 0; i < STANDBYS; i++) {
            standing.add(decider("standby"));
        }
        HaltingRuns.Step[] steps = HaltingRuns.Step.values();
        for (int trial = 0; trial < TRIALS; trial++) {
            HaltingRuns.Step step = steps[trial % steps.length];
            ChildJvm active = standing.remove();
            standing.add(decider("standby"));
            active.awaitLine("ready", START_TIMEOUT);
            active.send("go " + step);
            String halted = active.awaitLineStartingWith("halted " + step + " ", START_TIMEOUT);
            haltedAt.put(halted.substring(halted.lastIndexOf(' ') + 1), step);
            active.kill();
        }
        for (ChildJvm child : standing) {
            child.close();
        }
        decider("recover-only").awaitSuccess(START_TIMEOUT);

        Map<String, RunRow> runs = runs();
        Map<String, Long> executions = LedgerTool.executions(folder.resolve("ledger.txt"));
        Map<HaltingRuns.Step, Integer> trials = new EnumMap<>(HaltingRuns.Step.class);
        haltedAt.values().forEach(step -> trials.merge(step, 1, Integer::sum));
        System.out.printf("crash steps: %d kills %s, %d runs, %d executions%n", haltedAt.size(), trials, runs.size(),
                executions.values().stream().mapToLong(Long::longValue).sum());
        assertThat(executions).allSatisfy((call, count) -> assertThat(count).as("executions of %s", call)
                .isEqualTo(1));
        haltedAt.forEach((runId, step) -> {
            RunRow run = runs.get(runId);
            long executed = executions.getOrDefault(runId + " only", 0L);
            switch (step) {
                // Nothing committed: the card still waits, and nothing ran.
                case BEFORE_CLAIM -> assertThat(run.status() == RunStatus.WAITING_FOR_APPROVAL && run.decisions() == 0
                        && executed == 0).as("%s halted %s, %d executions", run, step, executed).isTrue();
                // The decision and the call's intent committed as one, nothing ran: whether the call started is
                // unknown to the next process, so the run is flagged with its decision kept, and nothing runs.
                case CLAIMED -> assertThat(run.status() == RunStatus.RUNNING && run.flagged() && run.decisions() == 1
                        && executed == 0).as("%s halted %s, %d executions", run, step, executed).isTrue();
                // The next state committed: the run went on past its decision.
                case NEXT_STATE -> assertThat(run.status() == RunStatus.COMPLETED && run.decisions() == 1
                        && executed == 1).as("%s halted %s, %d executions", run, step, executed).isTrue();
                // The call ran and the run did not get further: flagged for a person, never run again.
                default -> assertThat(run.status() == RunStatus.RUNNING && run.flagged() && run.decisions() == 1
                        && executed == 1).as("%s halted %s, %d executions", run, step, executed).isTrue();
            }
        });
    }

    @Test
    void workerFrozenPastItsLeaseNeverRunsACallTwice() throws Exception {
        List<String> settled = new ArrayList<>();
        for (int trial = 0; trial < TRIALS; trial++) {
            // In turns: frozen while a thread waits for the model before its call, and after it.
            int slowCall = 1 + trial % 2;
            ChildJvm worker = ChildJvm.start(FrozenWorker.class, folder.resolve("errors.txt"),
                    folder.resolve("store.db").toString(), folder.resolve("ledger.txt").toString(),
                    Integer.toString(slowCall));
            worker.awaitLine("asking", START_TIMEOUT);
            worker.signal("STOP");
            Thread.sleep(FROZEN.toMillis());
            worker.signal("CONT");
            String line = worker.awaitLineStartingWith("settled ", START_TIMEOUT);
            settled.add(line.substring("settled ".length()));
            worker.awaitSuccess(START_TIMEOUT);
        }

        Map<String, RunRow> runs = runs();
        Map<String, Long> executions = LedgerTool.executions(folder.resolve("ledger.txt"));
        System.out.printf("frozen workers: %d trials, %d completed, %d flagged, %d executions%n", settled.size(),
                settled.stream().filter(runId -> runs.get(runId).status() == RunStatus.COMPLETED).count(),
                settled.stream().filter(runId -> runs.get(runId).flagged()).count(),
                executions.values().stream().mapToLong(Long::longValue).sum());
        assertThat(executions).allSatisfy((call, count) -> assertThat(count).as("executions of %s", call)
                .isEqualTo(1));
        for (String runId : settled) {
            RunRow run = runs.get(runId);
            long executed = executions.getOrDefault(runId + " tally", 0L);
            assertThat(run.status() == RunStatus.COMPLETED && executed == 1
                    || run.status() == RunStatus.RUNNING && run.flagged())
                    .as("%s with %d executions", run, executed).isTrue();
        }
    }

    private ChildJvm decider(String mode) throws Exception {
        return ChildJvm.start(SteppedDecider.class, folder.resolve("errors.txt"), folder.resolve("store.db")
                .toString(), folder.resolve("ledger.txt").toString(), mode);
    }

    private record RunRow(String id, RunStatus status, boolean flagged, int decisions) {
    }

    /** Every run as the store holds it, read past the store. */
    private Map<String, RunRow> runs() throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + folder.resolve("store.db"));
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT r.id, r.status, r.outcome_unknown IS NOT NULL,"
                     + " (SELECT COUNT(*) FROM decisions d WHERE d.run_id = r.id) FROM runs r")) {
            Map<String, RunRow> runs = new HashMap<>();
            while (rows.next()) {
                runs.put(rows.getString(1), new RunRow(rows.getString(1), RunStatus.fromCode(rows.getString(2)),
                        rows.getBoolean(3), rows.getInt(4)));
            }
            return runs;
        }
    }
}
