package io.countersign.store;

import io.countersign.engine.agent.DecisionDeadlines;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Counts many decisions for benchmarks, through the very statements a claim runs ({@link DecisionLatencies}), a
 * thousand to a transaction on a bare connection, without the runs and decisions themselves: the figures read only
 * the counts.
 */
public final class DecisionCountsLoad {
    private DecisionCountsLoad() {
    }

    /**
     * Counts {@code decisions} decisions spread over the {@code days} days before {@code until}: of {@code agents}
     * agents, one or two of {@code tools} tools a card, by {@code operators} operators, 3 % expired, latencies
     * log-normal about two minutes (from milliseconds to days).
     */
    public static void load(Connection bare, int decisions, int days, int agents, int tools, int operators,
                            Instant until, long seed) throws SQLException {
        SplittableRandom random = new SplittableRandom(seed);
        boolean autoCommit = bare.getAutoCommit();
        bare.setAutoCommit(false);
        for (int i = 0; i < decisions; i++) {
            Instant decided = until.minusMillis(random.nextLong(Duration.ofDays(days).toMillis()));
            double gaussian = gaussian(random);
            long millis = Math.min(Duration.ofDays(20).toMillis(), Math.round(120_000 * Math.exp(1.6 * gaussian)));
            String agent = "agent-" + random.nextInt(agents);
            List<String> waitingOn = random.nextInt(4) == 0
                    ? List.of("tool-" + random.nextInt(tools), "tool-" + random.nextInt(tools))
                    : List.of("tool-" + random.nextInt(tools));
            String by = random.nextInt(100) < 3 ? DecisionDeadlines.ACTOR : "operator-" + random.nextInt(operators);
            DecisionLatencies.decided(bare, agent, waitingOn, by, decided.minusMillis(millis), decided);
            if (i % 1000 == 999) {
                bare.commit();
            }
        }
        bare.commit();
        bare.setAutoCommit(autoCommit);
    }

    private static double gaussian(SplittableRandom random) {
        // Box–Muller
        double u = 1 - random.nextDouble();
        double v = random.nextDouble();
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    }
}
