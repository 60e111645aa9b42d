package io.countersign.store;

import io.countersign.engine.agent.DecisionDeadlines;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.stats.LatencyBuckets;
import io.countersign.engine.stats.StatsDimension;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps the counts of how long decisions take (migration V18), in the transaction that records each decision or
 * escalation: a person's decision adds its latency to its agent's, each waiting tool's and its operator's row of
 * the day; a deadline's fallback counts the card expired; an escalation counts it escalated. Rows are written in
 * one order (dimension, then name; one day each), and every writer holds the audit chain's head before them, so two
 * writers on PostgreSQL never wait on each other's rows crosswise.
 */
final class DecisionLatencies {
    /**
     * Adds one decision to each of its rows (the {@code %s} of one values row per row), creating them if need be;
     * the histogram of a new row is the decision's alone.
     */
    private static final String ADD_DECISION = "INSERT INTO decision_latency_counts (dimension, decision_day, name,"
            + " decisions, latency_sum, latency_max, histogram) VALUES %s"
            + " ON CONFLICT (dimension, decision_day, name) DO UPDATE"
            + " SET decisions = decision_latency_counts.decisions + excluded.decisions,"
            + " latency_sum = decision_latency_counts.latency_sum + excluded.latency_sum,"
            + " latency_max = CASE WHEN excluded.latency_max > decision_latency_counts.latency_max"
            + " THEN excluded.latency_max ELSE decision_latency_counts.latency_max END";
    /**
     * {@link #ADD_DECISION}, returning each row's count and histogram as they stand: the rows that held decisions
     * before get their histograms in a second statement, under the locks this one took.
     */
    private static final String ADD_LATENCY = ADD_DECISION + " RETURNING dimension, name, decisions, histogram";
    /**
     * {@link #ADD_DECISION} with the decision's bucket added to the histogram of a row that held decisions before,
     * by PostgreSQL itself: the stored histogram's pairs and the decision's summed by bucket, in the order and form
     * {@link HistogramText#of} writes them.
     */
    private static final String ADD_LATENCY_IN_PLACE = ADD_DECISION + ", histogram = (SELECT"
            + " string_agg(summed.bucket || ':' || summed.count, ',' ORDER BY summed.bucket)"
            + " FROM (SELECT split_part(pair, ':', 1)::integer AS bucket,"
            + " sum(split_part(pair, ':', 2)::bigint)::bigint AS count"
            + " FROM unnest(string_to_array(decision_latency_counts.histogram || ',' || excluded.histogram, ','))"
            + " AS pairs (pair) WHERE pair <> '' GROUP BY 1) AS summed)";
    /** The values row of {@link #ADD_DECISION}: dimension, day, name, latency as sum and as maximum, histogram. */
    private static final String LATENCY_ROW = "(?, ?, ?, 1, ?, ?, ?)";
    /** The histograms of the rows of one day, one values row (dimension, name, histogram) per row in {@code %s}. */
    private static final String SET_HISTOGRAMS = "UPDATE decision_latency_counts SET histogram = v.column3"
            + " FROM (VALUES %s) AS v WHERE decision_latency_counts.dimension = v.column1"
            + " AND decision_latency_counts.name = v.column2 AND decision_latency_counts.decision_day = ?";
    private static final String HISTOGRAM_ROW = "(?, ?, ?)";
    /** Adds expired and escalated cards to each row (the {@code %s} of one values row per row). */
    private static final String ADD_FALLBACKS = "INSERT INTO decision_fallback_counts (dimension, decision_day, name,"
            + " expired, escalated) VALUES %s ON CONFLICT (dimension, decision_day, name) DO UPDATE"
            + " SET expired = decision_fallback_counts.expired + excluded.expired,"
            + " escalated = decision_fallback_counts.escalated + excluded.escalated";
    private static final String FALLBACK_ROW = "(?, ?, ?, ?, ?)";
    /** The statements' texts as {@link #withRows} made them. */
    private static final Map<Text, String> TEXTS = new ConcurrentHashMap<>();
    private static final Comparator<Key> ORDER = Comparator.comparing(Key::dimension)
            .thenComparing(Key::name);

    private DecisionLatencies() {
    }

    /** One row's dimension and name. */
    private record Key(StatsDimension dimension, String name) {
    }

    /** The UTC day an instant falls on, counted from the epoch. */
    static long dayOf(Instant at) {
        return Math.floorDiv(at.getEpochSecond(), 86_400L);
    }

    /** The latency in whole milliseconds from waiting to decision; a decision stamped earlier counts as zero. */
    static long millisBetween(Instant waitingSince, Instant decidedAt) {
        return Math.max(0, Duration.between(waitingSince, decidedAt).toMillis());
    }

    /**
     * Counts the decision a claim just recorded on {@code claimed} (its {@link StoredRun#lastDecision}): the
     * latency of a person's, the expiry of a deadline's fallback.
     */
    static void decided(Connection connection, StoredRun claimed) throws SQLException {
        Decision decision = claimed.lastDecision();
        if (decision == null || claimed.waitingSince() == null) {
            return;
        }
        decided(connection, claimed.agent(), waitingTools(claimed), decision.decidedBy(), claimed.waitingSince(),
                decision.decidedAt());
    }

    /**
     * As {@link #decided(Connection, StoredRun)}, as one write of the caller's statement on PostgreSQL, which adds
     * the decision to the histograms itself: nothing is read back. The caller adds it after the audit chain's head.
     */
    static void decided(WritesInOneStatement writes, StoredRun claimed) {
        Decision decision = claimed.lastDecision();
        if (decision == null || claimed.waitingSince() == null) {
            return;
        }
        long day = dayOf(decision.decidedAt());
        List<Key> keys = keys(claimed.agent(), waitingTools(claimed), decision.decidedBy());
        if (decision.decidedBy().equals(DecisionDeadlines.ACTOR)) {
            writes.add(withRows(ADD_FALLBACKS, keys.size(), FALLBACK_ROW),
                    (add, first) -> {
                        int parameter = first;
                        for (Key key : keys) {
                            parameter = bindFallback(add, parameter, key, day, 1, 0);
                        }
                        return parameter;
                    });
            return;
        }
        long millis = millisBetween(claimed.waitingSince(), decision.decidedAt());
        String alone = alone(millis);
        writes.add(withRows(ADD_LATENCY_IN_PLACE, keys.size(), LATENCY_ROW),
                (add, first) -> bindLatencies(add, first, keys, day, millis, alone));
    }

    private static List<String> waitingTools(StoredRun claimed) {
        return claimed.pausedState() == null ? List.of() : claimed.pausedState().waitingToolNames();
    }

    /** The histogram of the one decision of a latency. */
    private static String alone(long millis) {
        return LatencyBuckets.of(millis) + ":1";
    }

    /** Binds a {@link #LATENCY_ROW} per key from {@code first} on; returns the parameter after the last. */
    private static int bindLatencies(PreparedStatement add, int first, List<Key> keys, long day, long millis,
                                     String alone) throws SQLException {
        int parameter = first;
        for (Key key : keys) {
            add.setString(parameter++, key.dimension().code());
            add.setLong(parameter++, day);
            add.setString(parameter++, key.name());
            add.setLong(parameter++, millis);
            add.setLong(parameter++, millis);
            add.setString(parameter++, alone);
        }
        return parameter;
    }

    /** Counts a decision by {@code decidedBy} on a card of the agent waiting on the tools since {@code waitingSince}. */
    static void decided(Connection connection, String agent, List<String> tools, String decidedBy,
                        Instant waitingSince, Instant decidedAt) throws SQLException {
        long day = dayOf(decidedAt);
        if (decidedBy.equals(DecisionDeadlines.ACTOR)) {
            addFallback(connection, day, keys(agent, tools, decidedBy), 1, 0);
            return;
        }
        long millis = millisBetween(waitingSince, decidedAt);
        int bucket = LatencyBuckets.of(millis);
        List<Key> keys = keys(agent, tools, decidedBy);
        Map<Key, String> histograms = new LinkedHashMap<>();
        try (PreparedStatement add = connection.prepareStatement(withRows(ADD_LATENCY, keys.size(), LATENCY_ROW))) {
            bindLatencies(add, 1, keys, day, millis, alone(millis));
            try (ResultSet row = add.executeQuery()) {
                while (row.next()) {
                    if (row.getLong(3) == 1) {
                        continue;
                    }
                    SortedMap<Integer, Long> histogram = HistogramText.parse(row.getString(4));
                    histogram.merge(bucket, 1L, Long::sum);
                    String dimension = row.getString(1);
                    String name = row.getString(2);
                    histograms.put(new Key(StatsDimension.fromCode(dimension).orElseThrow(), name),
                            HistogramText.of(histogram));
                }
            }
        }
        if (histograms.isEmpty()) {
            return;
        }
        try (PreparedStatement set = connection.prepareStatement(withRows(SET_HISTOGRAMS, histograms.size(),
                HISTOGRAM_ROW))) {
            int parameter = 1;
            for (Map.Entry<Key, String> histogram : histograms.entrySet()) {
                set.setString(parameter++, histogram.getKey().dimension().code());
                set.setString(parameter++, histogram.getKey().name());
                set.setString(parameter++, histogram.getValue());
            }
            set.setLong(parameter, day);
            set.executeUpdate();
        }
    }

    /**
     * The statement {@code template} with {@code count} values rows, each as {@code row} gives it; each text is made
     * once, where formatting it for every decision cost 2.5 microseconds a statement under the client compiler.
     */
    private static String withRows(String template, int count, String row) {
        return TEXTS.computeIfAbsent(new Text(template, count), text -> String.format(Locale.ROOT, template,
                String.join(", ", Collections.nCopies(count, row))));
    }

    /** A statement's template and its number of values rows; the template names its row's shape. */
    private record Text(String template, int rows) {
    }

    /** Counts the card of run {@code runId} escalated at {@code at}, by its agent and waiting tools. */
    static void escalated(Connection connection, String runId, Instant at) throws SQLException {
        String agent;
        String tools;
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT agent, waiting_tools FROM runs WHERE id = ?")) {
            select.setString(1, runId);
            try (ResultSet row = select.executeQuery()) {
                if (!row.next()) {
                    return;
                }
                agent = row.getString(1);
                tools = row.getString(2);
            }
        }
        addFallback(connection, dayOf(at), keys(agent, tools == null ? List.of() : List.of(tools.split("\n")),
                null), 0, 1);
    }

    private static void addFallback(Connection connection, long day, List<Key> keys, long expired, long escalated)
            throws SQLException {
        try (PreparedStatement add = connection.prepareStatement(withRows(ADD_FALLBACKS, 1, FALLBACK_ROW))) {
            for (Key key : keys) {
                bindFallback(add, 1, key, day, expired, escalated);
                add.addBatch();
            }
            add.executeBatch();
        }
    }

    /** Binds a values row of {@link #ADD_FALLBACKS} from {@code first} on; returns the parameter after it. */
    private static int bindFallback(PreparedStatement add, int first, Key key, long day, long expired,
                                    long escalated) throws SQLException {
        add.setString(first, key.dimension().code());
        add.setLong(first + 1, day);
        add.setString(first + 2, key.name());
        add.setLong(first + 3, expired);
        add.setLong(first + 4, escalated);
        return first + 5;
    }

    /** The rows a decision counts in, in the one order writers take them: no operator for an escalation. */
    private static List<Key> keys(String agent, List<String> tools, String operator) {
        List<Key> keys = new ArrayList<>();
        keys.add(new Key(StatsDimension.AGENT, agent));
        Set<String> distinct = new LinkedHashSet<>(tools);
        distinct.forEach(tool -> keys.add(new Key(StatsDimension.TOOL, tool)));
        if (operator != null) {
            keys.add(new Key(StatsDimension.OPERATOR, operator));
        }
        keys.sort(ORDER);
        return keys;
    }
}
