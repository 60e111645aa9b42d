package io.countersign.store;

import io.countersign.engine.GovernanceEvent;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;

/**
 * Changes to {@code governance_event_counts}, gathered from the events of one transaction: an append adds them,
 * a purge subtracts them. The keys are applied in one order, so that two writers on PostgreSQL never wait on
 * each other's rows crosswise.
 */
final class HourCounts {
    static final long NANOS_PER_HOUR = 3_600_000_000_000L;
    private static final String KEY_COLUMNS = "event_hour, event_type, reason_code, rule_id, tool_name,"
            + " agent_configuration, actor";
    private static final String KEY_MATCHES = "event_hour = ? AND event_type = ? AND reason_code = ? AND rule_id = ?"
            + " AND tool_name = ? AND agent_configuration = ? AND actor = ?";
    private static final String ADD = "INSERT INTO governance_event_counts (" + KEY_COLUMNS + ", event_count)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (" + KEY_COLUMNS + ") DO UPDATE"
            + " SET event_count = governance_event_counts.event_count + excluded.event_count";
    private static final String SUBTRACT = "UPDATE governance_event_counts SET event_count = event_count - ? WHERE "
            + KEY_MATCHES;
    private static final String DROP_EMPTY = "DELETE FROM governance_event_counts WHERE event_count = 0 AND "
            + KEY_MATCHES;

    /** One row of the counts: an hour and the encoded values of the counted columns. */
    private record Key(long hour, String type, String reasonCode, String ruleId, String toolName, String agent,
                       String actor) {
        static final Comparator<Key> ORDER = Comparator.comparingLong(Key::hour).thenComparing(Key::type)
                .thenComparing(Key::reasonCode).thenComparing(Key::ruleId).thenComparing(Key::toolName)
                .thenComparing(Key::agent).thenComparing(Key::actor);

        int bind(PreparedStatement statement, int first) throws SQLException {
            statement.setLong(first, hour);
            statement.setString(first + 1, type);
            statement.setString(first + 2, reasonCode);
            statement.setString(first + 3, ruleId);
            statement.setString(first + 4, toolName);
            statement.setString(first + 5, agent);
            statement.setString(first + 6, actor);
            return first + 7;
        }
    }

    private final Map<Key, Long> counts = new TreeMap<>(Key.ORDER);

    /** How a value of a counted column is stored: '' for none, '=' before a present one (see migration V7). */
    static String encoded(String value) {
        return value == null ? "" : "=" + value;
    }

    /** The hour an event time falls in, rounded down. */
    static long hourOf(long nanos) {
        return Math.floorDiv(nanos, NANOS_PER_HOUR);
    }

    void count(GovernanceEvent event) {
        count(Nanos.of(event.time()), event.type().code(), event.reasonCode(), event.ruleId(), event.toolName(),
                event.agentConfiguration(), event.actor());
    }

    /** Counts a row read back in the order of {@link #KEY_COLUMNS}, with the time in place of the hour. */
    void count(ResultSet row) throws SQLException {
        count(row.getLong(1), row.getString(2), row.getString(3), row.getString(4), row.getString(5),
                row.getString(6), row.getString(7));
    }

    private void count(long nanos, String type, String reasonCode, String ruleId, String toolName, String agent,
                       String actor) {
        counts.merge(new Key(hourOf(nanos), type, encoded(reasonCode), encoded(ruleId), encoded(toolName),
                encoded(agent), encoded(actor)), 1L, Long::sum);
    }

    /** Adds what was counted to the stored counts. */
    void addTo(Connection connection) throws SQLException {
        try (PreparedStatement add = connection.prepareStatement(ADD)) {
            for (Map.Entry<Key, Long> count : counts.entrySet()) {
                add.setLong(count.getKey().bind(add, 1), count.getValue());
                add.addBatch();
            }
            add.executeBatch();
        }
    }

    /** Takes what was counted away from the stored counts, and drops the rows that come to nothing. */
    void subtractFrom(Connection connection) throws SQLException {
        try (PreparedStatement subtract = connection.prepareStatement(SUBTRACT);
             PreparedStatement dropEmpty = connection.prepareStatement(DROP_EMPTY)) {
            for (Map.Entry<Key, Long> count : counts.entrySet()) {
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
