package io.countersign.store;

import io.countersign.engine.event.GovernanceEvent;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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

    /** The searched columns in the one order writers add their values in: by name. */
    private static final List<String> WRITE_ORDER = SEARCHED.stream().sorted().toList();

    /**
     * The distinct values of each searched column, sorted only when written: most values an append sees are
     * already here, and a hash finds them cheaper. A set per column, so that a repeated value costs one lookup and
     * nothing made for it.
     */
    private final Map<String, Set<String>> names = new HashMap<>();

    EventNames() {
        SEARCHED.forEach(column -> names.put(column, new HashSet<>()));
    }

    void add(GovernanceEvent event) {
        add("event_type", event.type().code());
        add("reason_code", event.reasonCode());
        add("rule_id", event.ruleId());
        add("tool_name", event.toolName());
        add("agent_configuration", event.agentConfiguration());
        add("actor", event.actor());
        add("model", event.model());
        add("run_id", event.runId());
    }

    private void add(String column, String value) {
        // a missing value is never found, and an empty one contains no text either
        if (value != null && !value.isEmpty()) {
            names.get(column).add(value);
        }
    }

    /** Adds the values not stored yet, in the caller's transaction. */
    void addTo(Connection connection) throws SQLException {
        int count = names.values().stream().mapToInt(Set::size).sum();
        try (PreparedStatement add = StatementCache.forRows(connection, ADD, count)) {
            for (String column : WRITE_ORDER) {
                for (String value : names.get(column).stream().sorted().toList()) {
                    add.setString(1, column);
                    add.setString(2, value);
                    add.addBatch();
                }
            }
            add.executeBatch();
        }
    }

    /** Adds the values not stored yet as one write of a statement, in the order {@link #addTo} adds them. */
    void addTo(WritesInOneStatement writes) {
        List<String[]> values = new ArrayList<>();
        for (String column : WRITE_ORDER) {
            for (String value : names.get(column).stream().sorted().toList()) {
                values.add(new String[] {column, value});
            }
        }
        if (values.isEmpty()) {
            return;
        }
        writes.add("INSERT INTO governance_event_names (event_column, name) VALUES "
                + String.join(", ", Collections.nCopies(values.size(), "(?, ?)"))
                + " ON CONFLICT (event_column, name) DO NOTHING", (add, first) -> {
                    int parameter = first;
                    for (String[] value : values) {
                        add.setString(parameter++, value[0]);
                        add.setString(parameter++, value[1]);
                    }
                    return parameter;
                });
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
