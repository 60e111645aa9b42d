package io.countersign.store;

import io.countersign.engine.event.GovernanceEvent;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The distinct values of the columns a free-text search looks into (migration V9), so that a search first finds
 * the few values that contain its text and then counts their events from the hourly counts. Gathered from the
 * events of one transaction; the values are added in one order, so that two writers on PostgreSQL never wait on
 * each other's rows crosswise. The purge leaves the values: a value no event carries any more finds no events.
 */
final class EventNames {
    /** The columns {@link EventFilter#text()} is searched in. */
    static final List<String> SEARCHED = List.of("event_type", "reason_code", "rule_id", "tool_name",
            "agent_configuration", "actor", "model", "run_id");
    private static final String ADD = "INSERT INTO governance_event_names (event_column, name) VALUES (?, ?)"
            + " ON CONFLICT (event_column, name) DO NOTHING";

    private record Name(String column, String value) {
        static final Comparator<Name> ORDER = Comparator.comparing(Name::column).thenComparing(Name::value);
    }

    /** Sorted only when written: most values an append sees are already here, and a hash finds them cheaper. */
    private final Set<Name> names = new HashSet<>();

    void add(GovernanceEvent event) {
        List<String> values = List.of(event.type().code(), nullToEmpty(event.reasonCode()),
                nullToEmpty(event.ruleId()), nullToEmpty(event.toolName()), nullToEmpty(event.agentConfiguration()),
                nullToEmpty(event.actor()), nullToEmpty(event.model()), nullToEmpty(event.runId()));
        for (int i = 0; i < SEARCHED.size(); i++) {
            // a missing value is never found, and an empty one contains no text either
            if (!values.get(i).isEmpty()) {
                names.add(new Name(SEARCHED.get(i), values.get(i)));
            }
        }
    }

    private static String nullToEmpty(String value) {
        return value == null ? "" : value;
    }

    /** Adds the values not stored yet, in the caller's transaction. */
    void addTo(Connection connection) throws SQLException {
        List<Name> sorted = names.stream().sorted(Name.ORDER).toList();
        try (PreparedStatement add = StatementCache.forRows(connection, ADD, sorted.size())) {
            for (Name name : sorted) {
                add.setString(1, name.column());
                add.setString(2, name.value());
                add.addBatch();
            }
            add.executeBatch();
        }
    }

    /** The LIKE pattern, in lower case, that finds the text anywhere in a value, its wildcards taken literally. */
    static String pattern(String text) {
        return "%" + text.toLowerCase(Locale.ROOT).replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
                + "%";
    }

    /**
     * A subquery of the values of a searched column that contain the {@linkplain #pattern pattern}, its one
     * parameter; encoded as the hourly counts store them when {@code encoded}.
     */
    static String matching(String column, Dialect dialect, boolean encoded) {
        requireSearched(column);
        return "(SELECT " + (encoded ? "'=' || name" : "name") + " FROM governance_event_names WHERE event_column = '"
                + column + "' AND " + dialect.containsIgnoringCase("name") + ")";
    }

    /** Guards the column names these queries put into their text. */
    private static void requireSearched(String column) {
        if (!SEARCHED.contains(column)) {
            throw new IllegalArgumentException("the column " + column + " is not searched");
        }
    }

    /** Which of the searched {@code columns} hold a value that contains the text. */
    static Set<String> columnsMatching(Connection connection, Dialect dialect, String text,
                                       Collection<String> columns) throws SQLException {
        if (columns.isEmpty()) {
            return Set.of();
        }
        List<String> quoted = new ArrayList<>();
        for (String column : columns) {
            requireSearched(column);
            quoted.add("'" + column + "'");
        }
        try (PreparedStatement select = connection.prepareStatement("SELECT DISTINCT event_column"
                + " FROM governance_event_names WHERE event_column IN (" + String.join(", ", quoted) + ") AND "
                + dialect.containsIgnoringCase("name"))) {
            select.setString(1, pattern(text));
            Set<String> found = new HashSet<>();
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    found.add(rows.getString(1));
                }
            }
            return found;
        }
    }
}
