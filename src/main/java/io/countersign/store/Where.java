package io.countersign.store;

import io.countersign.engine.event.EventFilter;
import io.countersign.engine.event.EventType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

/**
 * A WHERE clause and its parameters, built from an event filter: over the events, or over a table of their counts.
 * Each value is a parameter; the clause holds only the store's own column names and operators.
 */
record Where(List<String> conditions, List<Object> parameters) {

    /** The filter over the events themselves. */
    static Where of(EventFilter filter, Dialect dialect) {
        Where where = new Where(List.of(), List.of());
        if (filter.from() != null) {
            where = where.and("event_time >= ?", Nanos.of(filter.from()));
        }
        if (filter.until() != null) {
            where = where.and("event_time < ?", Nanos.of(filter.until()));
        }
        where = where.types(filter);
        for (Criterion criterion : countedCriteria(filter)) {
            where = where.equal(criterion.column(), criterion.value());
        }
        where = where.equal("run_id", filter.runId());
        if (filter.text() != null) {
            where = where.containing(filter.text(), EventNames.SEARCHED, dialect::containsIgnoringCase);
        }
        return where;
    }

    /**
     * The events in the whole hours {@code fromHour} until {@code untilHour} (either {@code null} for no
     * bound) that the filter's text finds by their run id alone: the counts hold all the other values searched.
     */
    static Where ofRunsOnly(EventFilter filter, Long fromHour, Long untilHour, Dialect dialect) {
        List<String> others = EventNames.SEARCHED.stream().filter(column -> !column.equals("run_id")).toList();
        return of(filter.withText(null).between(fromHour == null ? null : CountTables.hourStart(fromHour),
                untilHour == null ? null : CountTables.hourStart(untilHour)), dialect)
                .and("run_id IN " + EventNames.matching("run_id", dialect, false),
                        EventNames.pattern(filter.text()))
                // a missing value must make the comparison false, not unknown, for NOT to keep the event
                .and("NOT " + anyOf(others, column -> dialect.containsIgnoringCase("COALESCE(" + column
                        + ", '')")), Collections.nCopies(others.size(), EventNames.pattern(filter.text()))
                        .toArray());
    }

    /** That the text is found in any of the columns, each tested by {@code contains} with the pattern. */
    private Where containing(String text, List<String> columns, Function<String, String> contains) {
        return and(anyOf(columns, contains), Collections.nCopies(columns.size(), EventNames.pattern(text))
                .toArray());
    }

    private static String anyOf(List<String> columns, Function<String, String> condition) {
        return "(" + String.join(" OR ", columns.stream().map(condition).toList()) + ")";
    }

    /**
     * The same filter over a table of counts by {@code unit}, for the stretches {@code from} (inclusive) until
     * {@code until} (exclusive), either {@code null} for no bound. Only for a filter whose criteria the counts
     * hold: see {@link CountUnion#of}. A text is looked for only in the counted columns {@code searched}, those that
     * hold a value containing it: each column looked into costs a lookup per row.
     */
    static Where ofCounts(EventFilter filter, CountTables.Unit unit, Long from, Long until,
                          Collection<String> searched, Dialect dialect) {
        Where where = new Where(List.of(), List.of());
        if (from != null) {
            where = where.and(unit.column() + " >= ?", from);
        }
        if (until != null) {
            where = where.and(unit.column() + " < ?", until);
        }
        where = where.types(filter);
        for (Criterion criterion : countedCriteria(filter)) {
            where = where.encoded(criterion.column(), criterion.value());
        }
        if (filter.text() != null) {
            // a row is found when one of its values is among those that contain the text
            List<String> columns = CountTables.Table.PEOPLE.columns().stream().filter(searched::contains)
                    .toList();
            where = where.containing(filter.text(), columns, column -> column + " IN "
                    + EventNames.matching(column, dialect, !column.equals("event_type")));
        }
        return where;
    }

    /** The filter's values for single columns that the tables of counts hold too, in the order they are bound. */
    private static List<Criterion> countedCriteria(EventFilter filter) {
        return List.of(new Criterion("reason_code", filter.reasonCode()), new Criterion("rule_id", filter.ruleId()),
                new Criterion("tool_name", filter.toolName()),
                new Criterion("agent_configuration", filter.agentConfiguration()),
                new Criterion("actor", filter.actor()));
    }

    /** A column and the value a filter asks of it, {@code null} for any. */
    private record Criterion(String column, String value) {
    }

    private Where types(EventFilter filter) {
        if (filter.types().isEmpty()) {
            return this;
        }
        List<Object> codes = filter.types().stream().map(EventType::code).sorted().map(Object.class::cast)
                .toList();
        return and("event_type IN (" + String.join(", ", Collections.nCopies(codes.size(), "?")) + ")",
                codes.toArray());
    }

    private Where encoded(String column, String value) {
        return value == null ? this : and(column + " = ?", CountTables.encoded(value));
    }

    Where equal(String column, String value) {
        return value == null ? this : and(column + " = ?", value);
    }

    Where and(String condition, Object... values) {
        List<String> nextConditions = new ArrayList<>(conditions);
        nextConditions.add(condition);
        List<Object> nextParameters = new ArrayList<>(parameters);
        Collections.addAll(nextParameters, values);
        return new Where(nextConditions, nextParameters);
    }

    String clause() {
        return conditions.isEmpty() ? "" : " WHERE " + String.join(" AND ", conditions);
    }

    PreparedStatement prepare(Connection connection, String sql) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        try {
            for (int i = 0; i < parameters.size(); i++) {
                statement.setObject(i + 1, parameters.get(i));
            }
            return statement;
        } catch (SQLException e) {
            statement.close();
            throw e;
        }
    }
}
