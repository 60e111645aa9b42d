package io.countersign.bench;

import io.countersign.engine.Actor;
import io.countersign.engine.stats.DecisionStats;
import io.countersign.engine.stats.DecisionStatsQuery;
import io.countersign.engine.stats.StatsDimension;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.store.DecisionCountsLoad;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;

/**
 * How long decisions take, read from the counts of many decisions: {@code decisions} decisions over 90 days (40
 * agents, 60 tools, 30 operators) are counted through the claim's own statements, {@code waiting} runs of the demo
 * wait, and the figures a person asks for (the service's whole answer: rows by the dimension, the total, the cards
 * waiting now) are timed for the last 30 days and for every day, by agent, tool and operator, medians of 51 after
 * 20 untimed. Arguments: {@code sqlite|postgres}, the decisions (100,000), the waiting runs (1,000).
 */
public final class DecisionStatsBenchmark {
    private static final int TIMED = 51;

    private DecisionStatsBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        String database = args.length > 0 ? args[0] : "sqlite";
        int decisions = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
        int waiting = args.length > 2 ? Integer.parseInt(args[2]) : 1_000;
        System.out.printf("Countersign decision statistics benchmark: %s, %,d decisions, %,d waiting runs, Java %s%n",
                database, decisions, waiting, Runtime.version());
        try (StoreBenchmark.Databases databases = StoreBenchmark.Databases.named(database)) {
            StoreBenchmark.Target target = databases.fresh();
            try (CountersignRuntime runtime = CountersignRuntime.open(target.location())) {
                Actor admin = runtime.localUser();
                runtime.ensureDemo(Path.of(System.getProperty("java.io.tmpdir"), "countersign-stats-bench"));
                long started = System.nanoTime();
                List<Actor> people = List.of(runtime.user("maria"), runtime.user("jonas"));
                List<String> agents = List.of("release-notes-bot", "intake-form", "web-research");
                for (int i = runtime.runs().inbox(people.get(0)).size(); i < waiting; i++) {
                    runtime.runs().start(people.get(i % 2), agents.get(i % agents.size()), "Benchmark task " + i,
                            false);
                }
                System.out.printf("%,d runs wait, started in %d s%n", runtime.runs().inbox(people.get(0)).size(),
                        (System.nanoTime() - started) / 1_000_000_000);
                started = System.nanoTime();
                try (Connection bare = target.bareConnection()) {
                    DecisionCountsLoad.load(bare, decisions, 90, 40, 60, 30, Instant.now(), 24);
                    System.out.printf("%,d decisions counted in %d s: %s%n", decisions,
                            (System.nanoTime() - started) / 1_000_000_000, rows(bare));
                }
                LocalDate today = LocalDate.ofInstant(Instant.now(), ZoneOffset.UTC);
                for (StatsDimension by : StatsDimension.values()) {
                    DecisionStatsQuery month = new DecisionStatsQuery(today.minusDays(30), today, by);
                    DecisionStatsQuery all = DecisionStatsQuery.all(by);
                    DecisionStats answer = runtime.decisionStats().decisions(admin, month);
                    System.out.printf("by %s, last 30 days: %.1f ms median (%d rows, %,d decisions, p50 %s, p90 %s,"
                                    + " max %s); every day: %.1f ms median%n", by.code(),
                            median(() -> runtime.decisionStats().decisions(admin, month)), answer.rows().size(),
                            answer.total().latencies().decisions(), answer.total().latencies().p50(),
                            answer.total().latencies().p90(), answer.total().latencies().max(),
                            median(() -> runtime.decisionStats().decisions(admin, all)));
                }
            }
        }
    }

    private static String rows(Connection bare) throws Exception {
        try (Statement statement = bare.createStatement();
             ResultSet latency = statement.executeQuery("SELECT COUNT(*) FROM decision_latency_counts")) {
            latency.next();
            long latencyRows = latency.getLong(1);
            try (ResultSet fallback = statement.executeQuery("SELECT COUNT(*) FROM decision_fallback_counts")) {
                fallback.next();
                return String.format("%,d rows of latency counts, %,d of fallback counts", latencyRows,
                        fallback.getLong(1));
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
