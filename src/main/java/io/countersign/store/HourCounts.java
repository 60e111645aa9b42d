package io.countersign.store;

import io.countersign.engine.GovernanceEvent;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Changes to the hourly counts of governance events (migrations V7 and V9), gathered from the events of one
 * transaction: an append adds them, a purge subtracts them. The keys are applied in one order, so that two writers on
 * PostgreSQL never wait on each other's rows crosswise.
 */
final class HourCounts {
    static final long NANOS_PER_HOUR = 3_600_000_000_000L;
    /** The counted columns of the events, in the order of {@link Table#columns}. */
    static final String COUNTED = "event_type, reason_code, rule_id, tool_name, agent_configuration, actor, model";

    /** The tables of hourly counts, smallest first. */
    enum Table {
        /** By the codes alone: what most filters and every chart ask about. */
        CODES("governance_event_code_counts", List.of("event_type", "reason_code", "rule_id", "tool_name")),
        /** Also by agent configuration, actor and model. */
        PEOPLE("governance_event_counts", List.of("event_type", "reason_code", "rule_id", "tool_name",
                "agent_configuration", "actor", "model"));

        private final String name;
        private final List<String> columns;
        private final String add;
        private final String subtract;
        private final String dropEmpty;

        Table(String name, List<String> columns) {
            this.name = name;
            this.columns = columns;
            String key = "event_hour, " + String.join(", ", columns);
            String matches = "event_hour = ?" + columns.stream().map(column -> " AND " + column + " = ?")
                    .reduce("", String::concat);
            this.add = "INSERT INTO " + name + " (" + key + ", event_count) VALUES (?"
                    + ", ?".repeat(columns.size() + 1) + ") ON CONFLICT (" + key + ") DO UPDATE"
                    + " SET event_count = " + name + ".event_count + excluded.event_count";
            this.subtract = "UPDATE " + name + " SET event_count = event_count - ? WHERE " + matches;
            this.dropEmpty = "DELETE FROM " + name + " WHERE event_count = 0 AND " + matches;
        }

        String tableName() {
            return name;
        }

        /** The counted columns, the type first. */
        List<String> columns() {
            return columns;
        }

        /** Whether this table counts by every one of {@code columns}. */
        boolean counts(List<String> wanted) {
            return columns.containsAll(wanted);
        }
    }

    /** One row of a table of counts: an hour and the values of its counted columns, as stored. */
    private record Key(long hour, List<String> values) {
        static final Comparator<Key> ORDER = Comparator.comparingLong(Key::hour).thenComparing(Key::values,
                (a, b) -> {
                    for (int i = 0; i < a.size(); i++) {
                        int order = a.get(i).compareTo(b.get(i));
                        if (order != 0) {
                            return order;
                        }
                    }
                    return 0;
                });

        int bind(PreparedStatement statement, int first) throws SQLException {
            statement.setLong(first, hour);
            for (int i = 0; i < values.size(); i++) {
                statement.setString(first + 1 + i, values.get(i));
            }
            return first + 1 + values.size();
        }
    }

    private final Map<Table, Map<Key, Long>> counts = new EnumMap<>(Table.class);

    HourCounts() {
        for (Table table : Table.values()) {
            counts.put(table, new TreeMap<>(Key.ORDER));
        }
    }

    /** How a value of a counted column is stored: '' for none, '=' before a present one. */
    static String encoded(String value) {
        return value == null ? "" : "=" + value;
    }

    /** The hour an event time falls in, rounded down. */
    static long hourOf(long nanos) {
        return Math.floorDiv(nanos, NANOS_PER_HOUR);
    }

    void count(GovernanceEvent event) {
        count(Nanos.of(event.time()), event.type().code(), event.reasonCode(), event.ruleId(), event.toolName(),
                event.agentConfiguration(), event.actor(), event.model());
    }

    /** Counts a row read back as {@code event_time, } then {@link #COUNTED}. */
    void count(ResultSet row) throws SQLException {
        count(row.getLong(1), row.getString(2), row.getString(3), row.getString(4), row.getString(5),
                row.getString(6), row.getString(7), row.getString(8));
    }

    private void count(long nanos, String type, String reasonCode, String ruleId, String toolName, String agent,
                       String actor, String model) {
        List<String> values = List.of(type, encoded(reasonCode), encoded(ruleId), encoded(toolName), encoded(agent),
                encoded(actor), encoded(model));
        long hour = hourOf(nanos);
        counts.forEach((table, rows) -> rows.merge(new Key(hour, values.subList(0, table.columns.size())), 1L,
                Long::sum));
    }

    /** Adds what was counted to the stored counts. */
    void addTo(Connection connection) throws SQLException {
        for (Table table : Table.values()) {
            try (PreparedStatement add = connection.prepareStatement(table.add)) {
                for (Map.Entry<Key, Long> count : counts.get(table).entrySet()) {
                    add.setLong(count.getKey().bind(add, 1), count.getValue());
                    add.addBatch();
                }
                add.executeBatch();
            }
        }
    }

    /** Takes what was counted away from the stored counts, and drops the rows that come to nothing. */
    void subtractFrom(Connection connection) throws SQLException {
        for (Table table : Table.values()) {
            try (PreparedStatement subtract = connection.prepareStatement(table.subtract);
                 PreparedStatement dropEmpty = connection.prepareStatement(table.dropEmpty)) {
                for (Map.Entry<Key, Long> count : counts.get(table).entrySet()) {
                    subtract.setLong(1, count.getValue());
                    count.getKey().bind(subtract, 2);
                    subtract.addBatch();
                    count.getKey().bind(dropEmpty, 1);
                    dropEmpty.addBatch();
                }
                subtract.executeBatch();
                dropEmpty.executeBatch();
            }
        }
    }

    /**
     * The smallest table that counts by every column a filter names, and by the columns {@code searched} whose
     * values contain the filter's text.
     */
    static Table tableFor(EventFilter filter, Collection<String> searched) {
        List<String> named = new ArrayList<>(searched);
        if (filter.agentConfiguration() != null) {
            named.add("agent_configuration");
        }
        if (filter.actor() != null) {
            named.add("actor");
        }
        for (Table table : Table.values()) {
            if (table.counts(named)) {
                return table;
            }
        }
        throw new IllegalStateException("no table of counts counts by " + named);
    }
}
