package io.countersign.bench;

import io.countersign.engine.Actor;
import io.countersign.engine.agent.DeadlineAction;
import io.countersign.engine.agent.DeadlineRule;
import io.countersign.engine.agent.DecisionDeadlines;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.service.DeadlineApplied;
import io.countersign.store.StoredAgentConfiguration;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The deadline sweep over many waiting runs: the demo's agents get an eight-hour deadline that cancels, then
 * {@code waiting} runs pause (approvals and input forms), and the sweep's query (the runs past their deadline) and
 * a whole sweep with nothing overdue are timed, medians of 51 after 20 untimed; then {@code overdue} runs' stored
 * deadlines are moved nine hours back, the query that finds them is timed likewise, and one sweep that cancels
 * them. Prints the query plan. Arguments: {@code sqlite|postgres}, the waiting runs (10,000), the overdue ones (100).
 */
public final class DeadlineSweepBenchmark {
    private static final List<String> AGENTS = List.of("release-notes-bot", "intake-form", "web-research");
    private static final int TIMED = 51;

    private DeadlineSweepBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        String database = args.length > 0 ? args[0] : "sqlite";
        int waiting = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        int overdue = args.length > 2 ? Integer.parseInt(args[2]) : 100;
        System.out.printf("Countersign deadline sweep benchmark: %s, %,d waiting runs, %,d overdue, Java %s%n",
                database, waiting, overdue, Runtime.version());
        try (StoreBenchmark.Databases databases = StoreBenchmark.Databases.named(database)) {
            StoreBenchmark.Target target = databases.fresh();
            try (CountersignRuntime runtime = CountersignRuntime.open(target.location())) {
                List<String> runs = waitingRuns(runtime, waiting);
                System.out.printf("the sweep's query, nothing overdue: %.2f ms median%n",
                        median(() -> runtime.store().runs().due(Instant.now(), 500)));
                System.out.printf("a whole sweep, nothing overdue: %.2f ms median%n",
                        median(runtime::applyDeadlines));
                try (Connection bare = target.bareConnection()) {
                    plan(bare, database);
                    moveBack(bare, runs.subList(0, overdue));
                }
                System.out.printf("the sweep's query, %d overdue: %.2f ms median%n", overdue,
                        median(() -> runtime.store().runs().due(Instant.now(), 500)));
                long start = System.nanoTime();
                List<DeadlineApplied> applied = runtime.applyDeadlines();
                double millis = (System.nanoTime() - start) / 1e6;
                System.out.printf("a sweep cancelling %d overdue runs: %.1f ms (%.2f ms a run), %d applied%n",
                        overdue, millis, millis / overdue, applied.size());
                System.out.printf("the sweep's query after: %.2f ms median%n",
                        median(() -> runtime.store().runs().due(Instant.now(), 500)));
            }
        }
    }

    /** The demo, its agents with an eight-hour deadline that cancels, and {@code count} waiting runs in all. */
    private static List<String> waitingRuns(CountersignRuntime runtime, int count) {
        long started = System.nanoTime();
        runtime.localUser();
        runtime.ensureDemo(java.nio.file.Path.of(System.getProperty("java.io.tmpdir"), "countersign-deadline-bench"));
        DecisionDeadlines eightHours = new DecisionDeadlines(new DeadlineRule(Duration.ofHours(8),
                DeadlineAction.CANCEL), Map.of(), null);
        for (String agent : AGENTS) {
            StoredAgentConfiguration stored = runtime.store().configurations().findAgent(agent).orElseThrow();
            runtime.store().configurations().saveAgent(new StoredAgentConfiguration(stored.name(),
                    stored.systemPrompt(), stored.modelName(), stored.toolGroups(), stored.allowedTools(),
                    stored.workspace(), stored.toolCallPolicies(), stored.maxRounds(), stored.fourEyes(), eightHours));
        }
        List<Actor> people = List.of(runtime.user("maria"), runtime.user("jonas"));
        List<String> runs = new ArrayList<>();
        int already = runtime.runs().inbox(people.get(0)).size();
        for (int i = already; i < count; i++) {
            runs.add(runtime.runs().start(people.get(i % 2), AGENTS.get(i % AGENTS.size()),
                    "Benchmark task " + i, false).runId());
        }
        System.out.printf("%,d runs wait (%,d with a deadline), written in %d s%n",
                runtime.runs().inbox(people.get(0)).size(), runs.size(), (System.nanoTime() - started) / 1_000_000_000);
        return runs;
    }

    private static void moveBack(Connection bare, List<String> runs) throws Exception {
        try (PreparedStatement update = bare.prepareStatement("UPDATE runs SET deadline = deadline - ?"
                + " WHERE id = ?")) {
            for (String run : runs) {
                update.setLong(1, Duration.ofHours(9).toNanos());
                update.setString(2, run);
                update.addBatch();
            }
            update.executeBatch();
        }
        if (!bare.getAutoCommit()) {
            bare.commit();
        }
    }

    private static void plan(Connection bare, String database) throws Exception {
        // the sweep's own query (DeadlineRows.due)
        String query = "SELECT id FROM runs WHERE deadline <= 1 AND (status || '') IN ('waiting_for_approval',"
                + " 'waiting_for_input') ORDER BY deadline, id LIMIT 500";
        try (Statement statement = bare.createStatement();
             ResultSet rows = statement.executeQuery((database.equals("postgres") ? "EXPLAIN " : "EXPLAIN QUERY PLAN ")
                     + query)) {
            int column = database.equals("postgres") ? 1 : 4;
            while (rows.next()) {
                System.out.println("plan: " + rows.getString(column));
            }
        }
    }

    @FunctionalInterface
    private interface Work {
        Object run() throws Exception;
    }

    private static double median(Work work) throws Exception {
        for (int i = 0; i < 20; i++) {
            work.run();
        }
        double[] millis = new double[TIMED];
        for (int i = 0; i < TIMED; i++) {
            long start = System.nanoTime();
            work.run();
            millis[i] = (System.nanoTime() - start) / 1e6;
        }
        Arrays.sort(millis);
        return millis[TIMED / 2];
    }
}
