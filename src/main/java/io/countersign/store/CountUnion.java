package io.countersign.store;

import io.countersign.engine.event.EventFilter;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The SELECTs whose union a count adds up: the filter's range in the largest stretches of time it may add up
 * from tables of counts (whole days in the middle, whole hours about them), each from the smallest table by
 * that stretch that holds its criteria, and the events of the partial hours at its edges; for a text, also the
 * events of the whole hours that only their run id finds, which the counts do not hold. Where the counts do
 * not hold what the filter asks (a run) or the range spans no whole hour, all matching events. The SELECTs
 * may add conditions without parameters to the WHERE clauses they are given.
 */
record CountUnion(List<String> selects, List<Object> parameters) {

    /**
     * @param units the stretches of time the count may add up, the hour first and coarser ones after it; none
     *              for the events alone
     * @param events the SELECT over the events that match a WHERE clause
     * @param counts the SELECT over the rows of a table of counts that match a WHERE clause
     */
    static CountUnion of(Connection connection, EventFilter filter, Dialect dialect, CountTables.Unit[] units,
                          Function<Where, String> events, Function<Counts, String> counts) throws SQLException {
        Long fromHour = filter.from() == null ? null : -Math.floorDiv(-Nanos.of(filter.from()),
                CountTables.NANOS_PER_HOUR);
        Long untilHour = filter.until() == null ? null : CountTables.hourOf(Nanos.of(filter.until()));
        boolean counted = units.length > 0 && filter.runId() == null && spansAny(fromHour, untilHour);
        if (!counted) {
            Where where = Where.of(filter, dialect);
            return new CountUnion(List.of(events.apply(where)), where.parameters());
        }
        List<Where> wheres = new ArrayList<>();
        List<String> selects = new ArrayList<>();
        if (fromHour != null && !filter.from().equals(CountTables.hourStart(fromHour))) {
            wheres.add(Where.of(filter.between(filter.from(), CountTables.hourStart(fromHour)), dialect));
        }
        if (untilHour != null && !filter.until().equals(CountTables.hourStart(untilHour))) {
            wheres.add(Where.of(filter.between(CountTables.hourStart(untilHour), filter.until()), dialect));
        }
        if (filter.text() != null) {
            wheres.add(Where.ofRunsOnly(filter, fromHour, untilHour, dialect));
        }
        wheres.forEach(where -> selects.add(events.apply(where)));
        Set<String> searched = filter.text() == null ? Set.of()
                : EventNames.columnsMatching(connection, dialect, filter.text(),
                CountTables.Table.PEOPLE.columns());
        // a text no counted value contains finds its events by their run id alone
        if (filter.text() == null || !searched.isEmpty()) {
            addCounts(filter, fromHour, untilHour, units, units.length - 1, searched, dialect, (table, where) -> {
                wheres.add(where);
                selects.add(counts.apply(new Counts(table.tableName(), where)));
            });
        }
        return new CountUnion(selects, wheres.stream().flatMap(where -> where.parameters().stream()).toList());
    }

    /**
     * Adds the counts of the hours {@code fromHour} until {@code untilHour} (either {@code null} for no bound)
     * in the largest whole stretches of {@code units[unit]} they hold, and the hours about them in finer ones.
     */
    private static void addCounts(EventFilter filter, Long fromHour, Long untilHour, CountTables.Unit[] units,
                                  int unit, Set<String> searched, Dialect dialect,
                                  BiConsumer<CountTables.Table, Where> add) {
        CountTables.Unit by = units[unit];
        Long from = fromHour == null ? null : by.firstStartingFrom(fromHour);
        Long until = untilHour == null ? null : by.ofHour(untilHour);
        if (unit > 0 && !spansAny(from, until)) {
            addCounts(filter, fromHour, untilHour, units, unit - 1, searched, dialect, add);
            return;
        }
        add.accept(CountTables.tableFor(filter, searched, by),
                Where.ofCounts(filter, by, from, until, searched, dialect));
        if (fromHour != null && fromHour != by.firstHour(from)) {
            addCounts(filter, fromHour, by.firstHour(from), units, unit - 1, searched, dialect, add);
        }
        if (untilHour != null && untilHour != by.firstHour(until)) {
            addCounts(filter, by.firstHour(until), untilHour, units, unit - 1, searched, dialect, add);
        }
    }

    /** Whether the stretches {@code from} until {@code until}, either {@code null} for no bound, are any. */
    private static boolean spansAny(Long from, Long until) {
        return from == null || until == null || from < until;
    }

    String union() {
        return String.join(" UNION ALL ", selects);
    }

    PreparedStatement prepare(Connection connection, String sql) throws SQLException {
        return new Where(List.of(), parameters).prepare(connection, sql);
    }

    /** Prepares a statement that holds this union first and {@code next}'s after it. */
    PreparedStatement prepare(Connection connection, String sql, CountUnion next) throws SQLException {
        List<Object> both = new ArrayList<>(parameters);
        both.addAll(next.parameters);
        return new Where(List.of(), both).prepare(connection, sql);
    }

    /** A table of counts, and which of its rows to add up. */
    record Counts(String table, Where where) {
    }
}
