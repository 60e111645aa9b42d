package io.countersign.store;

import io.countersign.engine.port.DecisionStatistics;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.stats.DecisionLatencyRow;
import io.countersign.engine.stats.DecisionStatsQuery;
import io.countersign.engine.stats.Latencies;
import io.countersign.engine.stats.StatsDimension;
import io.countersign.engine.stats.WaitingAge;
import io.countersign.engine.stats.WaitingNow;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * How long decisions take, added up from the counts {@link DecisionLatencies} keeps by UTC day: a range reads one
 * row per day and name, whatever the number of decisions. The cards waiting now are counted from the runs'
 * status index, one pass over the waiting runs.
 */
public final class DecisionStatsStore implements DecisionStatistics {
    private static final Comparator<DecisionLatencyRow> MOST_FIRST = Comparator
            .comparingLong((DecisionLatencyRow row) -> row.latencies().decisions() + row.expired()).reversed()
            .thenComparing(DecisionLatencyRow::name);
    private final Database database;

    DecisionStatsStore(Database database) {
        this.database = database;
    }

    @Override
    public List<DecisionLatencyRow> latencies(DecisionStatsQuery query) {
        return database.read("add up how long decisions took by " + query.by().code(), connection -> {
            Map<String, Counted> counted = new HashMap<>();
            try (NamedStatement select = NamedStatement.prepare(connection, "SELECT name, decisions, latency_sum,"
                    + " latency_max, histogram FROM decision_latency_counts WHERE " + days(query))) {
                try (ResultSet rows = bindDays(select, query).executeQuery()) {
                    while (rows.next()) {
                        counted.computeIfAbsent(rows.getString(1), name -> new Counted()).add(rows);
                    }
                }
            }
            Map<String, Latencies> latencies = new HashMap<>();
            counted.forEach((name, sums) -> latencies.put(name, sums.latencies()));
            Map<String, long[]> fallbacks = new HashMap<>();
            try (NamedStatement select = NamedStatement.prepare(connection, "SELECT name, SUM(expired),"
                    + " SUM(escalated) FROM decision_fallback_counts WHERE " + days(query) + " GROUP BY name")) {
                try (ResultSet rows = bindDays(select, query).executeQuery()) {
                    while (rows.next()) {
                        fallbacks.put(rows.getString(1), new long[] {rows.getLong(2), rows.getLong(3)});
                    }
                }
            }
            List<DecisionLatencyRow> found = new ArrayList<>();
            latencies.forEach((name, figures) -> {
                long[] fallback = fallbacks.getOrDefault(name, new long[2]);
                found.add(new DecisionLatencyRow(name, figures, fallback[0], fallback[1]));
            });
            fallbacks.forEach((name, fallback) -> {
                if (!latencies.containsKey(name)) {
                    found.add(new DecisionLatencyRow(name, Latencies.NONE, fallback[0], fallback[1]));
                }
            });
            found.sort(MOST_FIRST);
            return found;
        });
    }

    @Override
    public DecisionLatencyRow total(DecisionStatsQuery query) {
        // every decision counts once under its agent
        DecisionStatsQuery byAgent = new DecisionStatsQuery(query.firstDay(), query.lastDay(), StatsDimension.AGENT);
        Latencies all = Latencies.NONE;
        long expired = 0;
        long escalated = 0;
        for (DecisionLatencyRow row : latencies(byAgent)) {
            all = all.plus(row.latencies());
            expired += row.expired();
            escalated += row.escalated();
        }
        return new DecisionLatencyRow("all", all, expired, escalated);
    }

    @Override
    public WaitingNow waitingNow(Instant now) {
        WaitingAge[] bands = WaitingAge.values();
        StringBuilder sql = new StringBuilder("SELECT MIN(waiting_since)");
        for (int i = 0; i < bands.length; i++) {
            // the youngest band also holds a card stamped a little ahead of this clock
            List<String> conditions = new ArrayList<>();
            if (i > 0) {
                conditions.add("waiting_since <= :from" + i);
            }
            if (i + 1 < bands.length) {
                conditions.add("waiting_since > :from" + (i + 1));
            }
            sql.append(", COALESCE(SUM(CASE WHEN ").append(String.join(" AND ", conditions))
                    .append(" THEN 1 ELSE 0 END), 0)");
        }
        // the status as an expression would leave the index: the waiting runs are read from runs_by_status
        sql.append(" FROM runs WHERE status IN (:forApproval, :forInput) AND waiting_since IS NOT NULL");
        return database.read("count the cards waiting now by age", connection -> {
            try (NamedStatement select = NamedStatement.prepare(connection, sql.toString())) {
                for (int i = 1; i < bands.length; i++) {
                    select.set("from" + i, now.minus(bands[i].from()));
                }
                select.set("forApproval", RunStatus.WAITING_FOR_APPROVAL.code())
                        .set("forInput", RunStatus.WAITING_FOR_INPUT.code());
                try (ResultSet row = select.executeQuery()) {
                    row.next();
                    long oldest = row.getLong(1);
                    Instant oldestSince = row.wasNull() ? null : Nanos.toInstant(oldest);
                    Map<WaitingAge, Long> byAge = new EnumMap<>(WaitingAge.class);
                    for (int i = 0; i < bands.length; i++) {
                        byAge.put(bands[i], row.getLong(i + 2));
                    }
                    return new WaitingNow(now, byAge, oldestSince);
                }
            }
        });
    }

    /** The rows of one name added up, the histograms merged. */
    private static final class Counted {
        private final SortedMap<Integer, Long> buckets = new TreeMap<>();
        private long decisions;
        private long total;
        private long max;

        void add(ResultSet row) throws SQLException {
            decisions += row.getLong(2);
            total += row.getLong(3);
            max = Math.max(max, row.getLong(4));
            try {
                HistogramText.addTo(buckets, row.getString(5));
            } catch (IllegalArgumentException e) {
                throw new SQLException(e.getMessage(), e);
            }
        }

        Latencies latencies() {
            return new Latencies(decisions, total, max, buckets);
        }
    }

    private static String days(DecisionStatsQuery query) {
        return "dimension = :dimension" + (query.firstDay() == null ? "" : " AND decision_day >= :firstDay")
                + (query.lastDay() == null ? "" : " AND decision_day <= :lastDay");
    }

    private static NamedStatement bindDays(NamedStatement statement, DecisionStatsQuery query) throws SQLException {
        statement.set("dimension", query.by().code());
        if (query.firstDay() != null) {
            statement.set("firstDay", query.firstDay().toEpochDay());
        }
        if (query.lastDay() != null) {
            statement.set("lastDay", query.lastDay().toEpochDay());
        }
        return statement;
    }
}
