package io.countersign.store;

import io.countersign.engine.event.EventFilter;
import io.countersign.engine.event.GovernanceEvent;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Changes to the tables that count governance events by hour (migrations V7 and V9) and by day (V11), gathered
 * from the events of one transaction: an append adds them, a purge subtracts them. The keys are applied in one
 * order, so that two writers on PostgreSQL never wait on each other's rows crosswise.
 */
final class CountTables {
    static final long NANOS_PER_HOUR = 3_600_000_000_000L;
    /** Rows of counts added by one statement where there are that many: at most 900 parameters. */
    static final int ROWS_PER_ADD = 100;
    /** The counted columns of the events, in the order of {@link Table#columns}. */
    static final String COUNTED = "event_type, reason_code, rule_id, tool_name, agent_configuration, actor, model";

    /** The stretches of time the tables count by, finest first. */
    enum Unit {
        /** Hours since the epoch, UTC. */
        HOUR("event_hour", 1),
        /** Days since the epoch, UTC: they add up to days at other offsets only by hours. */
        DAY("event_day", 24);

        private final String column;
        private final long hours;

        Unit(String column, long hours) {
            this.column = column;
            this.hours = hours;
        }

        /** The column that holds a row's stretch of time, numbered from the epoch. */
        String column() {
            return column;
        }

        /** The stretch an hour falls in. */
        long ofHour(long hour) {
            return Math.floorDiv(hour, hours);
        }

        /** The first stretch that begins at or after an hour. */
        long firstStartingFrom(long hour) {
            return -Math.floorDiv(-hour, hours);
        }

        /** The first hour of a stretch. */
        long firstHour(long stretch) {
            return stretch * hours;
        }
    }

    /** The tables of counts, smallest first within each unit. */
    enum Table {
        /** By hour and the codes alone: what most filters and every chart ask about. */
        CODES("governance_event_code_counts", Unit.HOUR, List.of("event_type", "reason_code", "rule_id",
                "tool_name")),
        /** By hour, also by agent configuration, actor and model. */
        PEOPLE("governance_event_counts", Unit.HOUR, List.of("event_type", "reason_code", "rule_id", "tool_name",
                "agent_configuration", "actor", "model")),
        /** By day and the codes alone. */
        CODES_BY_DAY("governance_event_code_day_counts", Unit.DAY, CODES.columns),
        /** By day and every counted column. */
        PEOPLE_BY_DAY("governance_event_day_counts", Unit.DAY, PEOPLE.columns);

        private final String name;
        private final Unit unit;
        private final List<String> columns;
        private final String add;
        private final String addMany;
        private final String subtract;
        private final String dropEmpty;

        Table(String name, Unit unit, List<String> columns) {
            this.name = name;
            this.unit = unit;
            this.columns = columns;
            String key = unit.column() + ", " + String.join(", ", columns);
            String matches = unit.column() + " = ?" + columns.stream().map(column -> " AND " + column + " = ?")
                    .reduce("", String::concat);
            String values = "(?" + ", ?".repeat(columns.size() + 1) + ")";
            String upsert = " ON CONFLICT (" + key + ") DO UPDATE"
                    + " SET event_count = " + name + ".event_count + excluded.event_count";
            String insert = "INSERT INTO " + name + " (" + key + ", event_count) VALUES ";
            this.add = insert + values + upsert;
            this.addMany = insert + values + (", " + values).repeat(ROWS_PER_ADD - 1) + upsert;
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

    /** The events counted by hour and every counted column; every table's rows are added up from these. */
    private final CountedEvents events = new CountedEvents(Table.PEOPLE.columns.size());

    /** How a value of a counted column is stored: '' for none, '=' before a present one. */
    static String encoded(String value) {
        return value == null ? "" : "=" + value;
    }

    /** The start of an hour counted since the epoch. */
    static Instant hourStart(long hour) {
        return Nanos.toInstant(hour * NANOS_PER_HOUR);
    }

    /** The hour an event time falls in, rounded down. */
    static long hourOf(long nanos) {
        return Math.floorDiv(nanos, NANOS_PER_HOUR);
    }

    void count(GovernanceEvent event) {
        events.add(hourOf(Nanos.of(event.time())), event.type().code(), event.reasonCode(), event.ruleId(),
                event.toolName(), event.agentConfiguration(), event.actor(), event.model());
    }

    /** Counts a row read back as {@code event_time, } then {@link #COUNTED}. */
    void count(ResultSet row) throws SQLException {
        events.add(hourOf(row.getLong(1)), row.getString(2), row.getString(3), row.getString(4), row.getString(5),
                row.getString(6), row.getString(7), row.getString(8));
    }

    /**
     * Adds what was counted to the stored counts: {@value #ROWS_PER_ADD} rows to a statement while that many are
     * left (SQLite runs a batch's statement once per entry, each run a round of calls into it), the rest one to a
     * statement.
     */
    void addTo(Connection connection) throws SQLException {
        Map<Unit, CountedEvents.Sorted> sorted = new EnumMap<>(Unit.class);
        for (Table table : Table.values()) {
            List<CountedEvents.Row> rows = rows(table, sorted);
            int many = rows.size() - rows.size() % ROWS_PER_ADD;
            add(connection, table.addMany, table, rows.subList(0, many), ROWS_PER_ADD);
            add(connection, table.add, table, rows.subList(many, rows.size()), 1);
        }
    }

    /** Adds what was counted as writes of one statement, a row to each, in the order {@link #addTo} adds them. */
    void addTo(WritesInOneStatement writes) {
        Map<Unit, CountedEvents.Sorted> sorted = new EnumMap<>(Unit.class);
        for (Table table : Table.values()) {
            for (CountedEvents.Row row : rows(table, sorted)) {
                writes.add(table.add, (add, first) -> {
                    int parameter = bind(add, first, table, row);
                    add.setLong(parameter, row.count());
                    return parameter + 1;
                });
            }
        }
    }

    /** Upserts the rows, {@code perStatement} to each run of {@code sql}, in their order. */
    private void add(Connection connection, String sql, Table table, List<CountedEvents.Row> rows,
                     int perStatement) throws SQLException {
        if (rows.isEmpty()) {
            return;
        }
        try (PreparedStatement add = StatementCache.forRows(connection, sql, rows.size())) {
            int parameter = 1;
            for (int done = 0; done < rows.size(); done++) {
                CountedEvents.Row row = rows.get(done);
                parameter = bind(add, parameter, table, row);
                add.setLong(parameter++, row.count());
                if ((done + 1) % perStatement == 0) {
                    add.addBatch();
                    parameter = 1;
                }
            }
            add.executeBatch();
        }
    }

    /** Takes what was counted away from the stored counts, and drops the rows that come to nothing. */
    void subtractFrom(Connection connection) throws SQLException {
        Map<Unit, CountedEvents.Sorted> sorted = new EnumMap<>(Unit.class);
        for (Table table : Table.values()) {
            List<CountedEvents.Row> rows = rows(table, sorted);
            try (PreparedStatement subtract = StatementCache.forRows(connection, table.subtract, rows.size());
                 PreparedStatement dropEmpty = StatementCache.forRows(connection, table.dropEmpty, rows.size())) {
                for (CountedEvents.Row row : rows) {
                    subtract.setLong(1, row.count());
                    bind(subtract, 2, table, row);
                    subtract.addBatch();
                    bind(dropEmpty, 1, table, row);
                    dropEmpty.addBatch();
                }
                subtract.executeBatch();
                dropEmpty.executeBatch();
            }
        }
    }

    /**
     * The rows counted for a table, in the one order writers apply them in: by stretch, then by the values as
     * they are, missing values first (their encoding '' sorts before any '=' value). The events are sorted once
     * per unit, into {@code sorted}, for both of its tables.
     */
    private List<CountedEvents.Row> rows(Table table, Map<Unit, CountedEvents.Sorted> sorted) {
        return sorted.computeIfAbsent(table.unit, unit -> events.sorted(unit::ofHour)).rows(table.columns.size());
    }

    /** Binds a row's key from parameter {@code first} on; returns the parameter after it. */
    private int bind(PreparedStatement statement, int first, Table table, CountedEvents.Row row)
            throws SQLException {
        statement.setLong(first, row.stretch());
        // the type is never missing and stored as it is
        statement.setString(first + 1, events.value(row, 0));
        for (int column = 1; column < table.columns.size(); column++) {
            statement.setString(first + 1 + column, events.encodedValue(row, column));
        }
        return first + 1 + table.columns.size();
    }

    /**
     * The smallest table by {@code unit} that counts by every column a filter names, and by the columns
     * {@code searched} whose values contain the filter's text.
     */
    static Table tableFor(EventFilter filter, Collection<String> searched, Unit unit) {
        List<String> named = new ArrayList<>(searched);
        if (filter.agentConfiguration() != null) {
            named.add("agent_configuration");
        }
        if (filter.actor() != null) {
            named.add("actor");
        }
        for (Table table : Table.values()) {
            if (table.unit == unit && table.counts(named)) {
                return table;
            }
        }
        throw new IllegalStateException("no table of counts by " + unit + " counts by " + named);
    }
}
