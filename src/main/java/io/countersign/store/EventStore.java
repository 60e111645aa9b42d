package io.countersign.store;

import io.countersign.engine.event.DayCount;
import io.countersign.engine.event.EventCharts;
import io.countersign.engine.event.EventCount;
import io.countersign.engine.event.EventCursor;
import io.countersign.engine.event.EventFilter;
import io.countersign.engine.event.EventPage;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.event.PageRequest;
import io.countersign.engine.port.EventSink;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The governance events: appended, never updated. Queries page through them newest first by the keyset
 * (time, id), so a page costs the same at the millionth event as at the first. The counts add up the hourly
 * counts that the append and the purge keep beside the events, wherever the filter allows.
 */
public final class EventStore implements EventSink {
    static final String COLUMNS = "id, event_time, event_type, reason_code, tool_name, rule_id, run_id,"
            + " agent_configuration, actor, model, detail";
    static final String INSERT = "INSERT INTO governance_events (" + COLUMNS
            + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    private static final int BATCH = 1000;
    /** Purged in slices, so that other writers get the lock between them. */
    private static final int PURGE_SLICE = 10_000;
    private static final long NANOS_PER_DAY = 86_400_000_000_000L;

    private final Database database;

    EventStore(Database database) {
        this.database = database;
    }

    /**
     * Appends one event. A decision's event ({@code approval_decided}, {@code input_submitted}) of a run that
     * carries out a claimed decision is recorded once per decision: when a process stopped after recording it and
     * before any call started, another process carries the same decision out again, and its event is not
     * recorded a second time.
     */
    @Override
    public void record(GovernanceEvent event) {
        if (event.runId() == null
                || (event.type() != EventType.APPROVAL_DECIDED && event.type() != EventType.INPUT_SUBMITTED)) {
            appendAll(List.of(event));
            return;
        }
        database.write("record the decision event of run " + event.runId(), connection -> {
            if (!decisionEventRecordedBefore(connection, event.runId())) {
                insert(connection, List.of(event));
            }
            return null;
        });
    }

    /**
     * Marks the run's claimed decision as having its event, in the caller's transaction; true when it had it
     * already. A run with no claimed decision (a decision event recorded outside the claim) has nothing to mark.
     */
    private static boolean decisionEventRecordedBefore(Connection connection, String runId) throws SQLException {
        try (PreparedStatement mark = connection.prepareStatement("UPDATE decisions SET event_recorded = ?"
                + " WHERE id = (SELECT claimed_decision FROM runs WHERE id = ?) AND event_recorded = ?")) {
            mark.setBoolean(1, true);
            mark.setString(2, runId);
            mark.setBoolean(3, false);
            if (mark.executeUpdate() == 1) {
                return false;
            }
        }
        try (PreparedStatement claimed = connection.prepareStatement("SELECT 1 FROM runs r JOIN decisions d"
                + " ON d.id = r.claimed_decision WHERE r.id = ?")) {
            claimed.setString(1, runId);
            try (ResultSet row = claimed.executeQuery()) {
                return row.next();
            }
        }
    }

    /** Appends the events in one transaction; none is stored if any fails (a repeated id, for one). */
    public void appendAll(List<GovernanceEvent> events) {
        if (events.isEmpty()) {
            return;
        }
        database.write("append " + events.size() + " governance event" + (events.size() == 1 ? "" : "s"),
                connection -> {
                    insert(connection, events);
                    return null;
                });
    }

    /**
     * Inserts the events in batches, adds them to the tables of counts and their values to the searched names, in
     * the caller's transaction.
     */
    private static void insert(Connection connection, List<GovernanceEvent> events) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
            int pending = 0;
            for (GovernanceEvent event : events) {
                bind(insert, event);
                insert.addBatch();
                if (++pending == BATCH) {
                    insert.executeBatch();
                    pending = 0;
                }
            }
            if (pending > 0) {
                insert.executeBatch();
            }
        }
        CountTables counts = new CountTables();
        EventNames names = new EventNames();
        for (GovernanceEvent event : events) {
            counts.count(event);
            names.add(event);
        }
        counts.addTo(connection);
        names.addTo(connection);
    }

    /** Binds an event to the parameters of {@link #INSERT}. */
    static void bind(PreparedStatement insert, GovernanceEvent event) throws SQLException {
        insert.setString(1, event.id());
        insert.setLong(2, Nanos.of(event.time()));
        insert.setString(3, event.type().code());
        insert.setString(4, event.reasonCode());
        insert.setString(5, event.toolName());
        insert.setString(6, event.ruleId());
        insert.setString(7, event.runId());
        insert.setString(8, event.agentConfiguration());
        insert.setString(9, event.actor());
        insert.setString(10, event.model());
        insert.setString(11, event.detail());
    }

    /** One page of the events that match the filter, newest first. */
    public EventPage page(EventFilter filter, PageRequest request) {
        Objects.requireNonNull(filter, "filter");
        Objects.requireNonNull(request, "request");
        int size = request.size();
        return database.read("read governance events", connection -> {
            List<GovernanceEvent> rows = select(connection, filter, request);
            return switch (request.direction()) {
                case FIRST -> forward(rows, size, null);
                case AFTER -> forward(rows, size, rows.isEmpty() ? null : cursorOf(rows.get(0)));
                // Back at the start: a full first page rather than the few events left before the cursor.
                case BEFORE -> rows.size() < size
                        ? forward(select(connection, filter, PageRequest.first(size)), size, null)
                        : backward(rows, size);
            };
        });
    }

    /** A page from rows read newest first, one more than the page holds if more follow. */
    private static EventPage forward(List<GovernanceEvent> rows, int size, EventCursor previous) {
        boolean more = rows.size() > size;
        List<GovernanceEvent> page = more ? rows.subList(0, size) : rows;
        return new EventPage(page, more ? cursorOf(page.get(size - 1)) : null, previous);
    }

    /** A page from at least {@code size} rows read oldest first from a cursor, one more if more precede. */
    private static EventPage backward(List<GovernanceEvent> rows, int size) {
        boolean more = rows.size() > size;
        List<GovernanceEvent> page = new ArrayList<>(rows.subList(0, size));
        Collections.reverse(page);
        return new EventPage(page, cursorOf(page.get(size - 1)), more ? cursorOf(page.get(0)) : null);
    }

    private static EventCursor cursorOf(GovernanceEvent event) {
        return new EventCursor(event.time(), event.id());
    }

    /**
     * Reads one row more than the page holds: newest first, or for BEFORE oldest first from the cursor on. A
     * newest-first read starts no earlier than the hourly counts show it needs to: an index of one criterion finds
     * a page of events that match the others at once where they are common, and only after walking all of them
     * where they are rare or never meet (a rule with a type that has no rules, say).
     */
    private List<GovernanceEvent> select(Connection connection, EventFilter filter, PageRequest request)
            throws SQLException {
        Where where = Where.of(filter, database.dialect());
        if (request.direction() != PageRequest.Direction.BEFORE) {
            Reach reach = reach(connection, filter, request);
            if (reach instanceof Reach.Nothing) {
                return List.of();
            }
            if (reach instanceof Reach.From from) {
                where = where.and("event_time >= ?", from.nanos());
            }
        }
        String order = "event_time DESC, id DESC";
        if (request.direction() != PageRequest.Direction.FIRST) {
            boolean after = request.direction() == PageRequest.Direction.AFTER;
            where = where.and("(event_time, id) " + (after ? "<" : ">") + " (?, ?)",
                    Nanos.of(request.cursor().time()), request.cursor().id());
            order = after ? order : "event_time ASC, id ASC";
        }
        String sql = "SELECT " + COLUMNS + " FROM governance_events" + where.clause() + " ORDER BY " + order
                + " LIMIT " + (request.size() + 1);
        try (PreparedStatement select = where.prepare(connection, sql); ResultSet rows = select.executeQuery()) {
            List<GovernanceEvent> events = new ArrayList<>();
            while (rows.next()) {
                events.add(event(rows));
            }
            return events;
        }
    }

    /** How far back a newest-first page of a filter reaches, as the hourly counts show it. */
    private sealed interface Reach {
        /** The counts cannot tell: the filter names a run or a text, whose events they do not all hold. */
        record Unknown() implements Reach {
        }

        /** No event matches. */
        record Nothing() implements Reach {
        }

        /** No event the page needs is older than this time, in nanoseconds. */
        record From(long nanos) implements Reach {
        }
    }

    /**
     * Walks the filter's hours of counts newest first until they hold a page and one event more. The hours at the
     * edges (the range's ends, the cursor's hour) hold events outside the page's reach too: they may hold its
     * events, but do not count towards it. Counts are never zero, so a page and three rows suffice.
     */
    private Reach reach(Connection connection, EventFilter filter, PageRequest request) throws SQLException {
        if (filter.text() != null || filter.runId() != null) {
            return new Reach.Unknown();
        }
        Long top = request.cursor() != null ? Long.valueOf(CountTables.hourOf(Nanos.of(request.cursor().time())))
                : filter.until() == null ? null : CountTables.hourOf(Nanos.of(filter.until()));
        Long bottom = filter.from() == null ? null : CountTables.hourOf(Nanos.of(filter.from()));
        CountTables.Table table = CountTables.tableFor(filter, Set.of(), CountTables.Unit.HOUR);
        Where where = Where.ofCounts(filter, CountTables.Unit.HOUR, bottom, top == null ? null : top + 1, Set.of(),
                database.dialect());
        String sql = "SELECT event_hour, SUM(event_count) FROM " + table.tableName() + where.clause()
                + " GROUP BY event_hour ORDER BY event_hour DESC LIMIT " + (request.size() + 3);
        try (PreparedStatement select = where.prepare(connection, sql); ResultSet rows = select.executeQuery()) {
            long counted = 0;
            Long reached = null;
            while (counted <= request.size() && rows.next()) {
                reached = rows.getLong(1);
                boolean edge = reached.equals(top) || reached.equals(bottom);
                counted += edge ? 0 : rows.getLong(2);
            }
            return reached == null ? new Reach.Nothing()
                    : new Reach.From(reached * CountTables.NANOS_PER_HOUR);
        }
    }

    private static GovernanceEvent event(ResultSet row) throws SQLException {
        String type = row.getString(3);
        EventType eventType;
        try {
            eventType = EventType.fromCode(type);
        } catch (IllegalArgumentException e) {
            throw new SQLException("the store holds event " + row.getString(1) + " of unknown type \"" + type
                    + "\"", e);
        }
        return new GovernanceEvent(row.getString(1), Nanos.toInstant(row.getLong(2)), eventType, row.getString(4),
                row.getString(5), row.getString(6), row.getString(7), row.getString(8), row.getString(9),
                row.getString(10), row.getString(11));
    }

    /** How many matching events carry each reason code, most first; events without one are left out. */
    public List<EventCount> countsByReason(EventFilter filter) {
        return countBy("reason_code", filter);
    }

    /** How many matching events each rule produced, most first; events without a rule are left out. */
    public List<EventCount> countsByRule(EventFilter filter) {
        return countBy("rule_id", filter);
    }

    /** How many matching events name each tool, most first; events without a tool are left out. */
    public List<EventCount> countsByTool(EventFilter filter) {
        return countBy("tool_name", filter);
    }

    /** The matching events counted by one column, whole days from the daily tables as {@link #charts} counts them. */
    private List<EventCount> countBy(String column, EventFilter filter) {
        String counted = database.dialect().unindexed(column);
        return database.read("count governance events by " + column.replace('_', ' '), connection -> {
            Parts parts = Parts.of(connection, filter, database.dialect(), CountTables.Unit.values(),
                    events -> "SELECT " + counted + " AS counted, COUNT(*) AS events FROM governance_events"
                            + events.and(counted + " IS NOT NULL").clause() + " GROUP BY 1",
                    counts -> "SELECT SUBSTR(" + column + ", 2) AS counted, SUM(event_count) AS events"
                            + " FROM " + counts.table() + counts.where().and(column + " <> ''").clause()
                            + " GROUP BY " + column);
            String sql = "SELECT counted, SUM(events) FROM (" + parts.union() + ") AS parts GROUP BY counted"
                    + " ORDER BY SUM(events) DESC, counted";
            try (PreparedStatement select = parts.prepare(connection, sql); ResultSet rows = select.executeQuery()) {
                List<EventCount> counts = new ArrayList<>();
                while (rows.next()) {
                    counts.add(new EventCount(rows.getString(1), rows.getLong(2)));
                }
                return counts;
            }
        });
    }

    /** How many matching events fell on each day (days begin at midnight at the given offset), oldest first. */
    public List<DayCount> countsByDay(EventFilter filter, ZoneOffset offset) {
        long shift = offset.getTotalSeconds() * 1_000_000_000L;
        return database.read("count governance events by day", connection -> {
            Parts parts = byDay(connection, filter, shift);
            String sql = "SELECT day, SUM(events) FROM (" + parts.union() + ") AS parts GROUP BY day ORDER BY day";
            try (PreparedStatement select = parts.prepare(connection, sql); ResultSet rows = select.executeQuery()) {
                List<DayCount> counts = new ArrayList<>();
                while (rows.next()) {
                    counts.add(new DayCount(LocalDate.ofEpochDay(rows.getLong(1)), rows.getLong(2)));
                }
                return counts;
            }
        });
    }

    /**
     * The SELECTs of the matching events' counts by day, days beginning at midnight at an offset of {@code shift}
     * nanoseconds. Hours add up to days only at an offset of whole hours; the counts are added up by hour first,
     * which reads a table of counts in the order it is stored, and only then by day.
     */
    private Parts byDay(Connection connection, EventFilter filter, long shift) throws SQLException {
        return Parts.of(connection, filter, database.dialect(), shift % CountTables.NANOS_PER_HOUR == 0
                        ? new CountTables.Unit[] {CountTables.Unit.HOUR} : new CountTables.Unit[0],
                events -> "SELECT " + dayOf("event_time", shift) + " AS day, COUNT(*) AS events"
                        + " FROM governance_events" + events.clause() + " GROUP BY 1",
                counts -> "SELECT " + dayOf("event_hour * " + CountTables.NANOS_PER_HOUR, shift) + " AS day,"
                        + " SUM(events) AS events FROM (SELECT event_hour, SUM(event_count) AS events FROM "
                        + counts.table() + counts.where().clause() + " GROUP BY event_hour) AS hours GROUP BY 1");
    }

    /**
     * The day since the epoch of a time in nanoseconds, days beginning at midnight at an offset of {@code shift}
     * nanoseconds. Both operands are numbers made here, not input, so they go into the text (a parameter in a
     * GROUP BY expression trips PostgreSQL's type inference).
     */
    private static String dayOf(String nanos, long shift) {
        return "(" + nanos + " + " + shift + ") / " + NANOS_PER_DAY;
    }

    /**
     * The matching events counted by reason, rule, tool and day (days begin at midnight at the given offset), in
     * one statement, so that all four charts count the same events: the counts by day add up hours, the others
     * whole days where the filter spans any.
     */
    public EventCharts charts(EventFilter filter, ZoneOffset offset) {
        Objects.requireNonNull(filter, "filter");
        Objects.requireNonNull(offset, "offset");
        long shift = offset.getTotalSeconds() * 1_000_000_000L;
        return database.read("count governance events", connection -> {
            Parts days = byDay(connection, filter, shift);
            Parts codes = Parts.of(connection, filter, database.dialect(), CountTables.Unit.values(),
                    events -> "SELECT reason_code AS reason, rule_id AS rule, tool_name AS tool, COUNT(*) AS events"
                            + " FROM governance_events" + events.clause() + " GROUP BY 1, 2, 3",
                    // grouped as stored and decoded after: decoding every row of counts took a quarter of the time
                    counts -> "SELECT " + decoded("reason_code") + " AS reason, " + decoded("rule_id") + " AS rule, "
                            + decoded("tool_name") + " AS tool, events FROM (SELECT reason_code, rule_id, tool_name,"
                            + " SUM(event_count) AS events FROM " + counts.table() + counts.where().clause()
                            + " GROUP BY 1, 2, 3) AS stored");
            String sql = "SELECT day, NULL, NULL, NULL, SUM(events) FROM (" + days.union() + ") AS days GROUP BY day"
                    + " UNION ALL SELECT NULL, reason, rule, tool, SUM(events) FROM (" + codes.union() + ") AS codes"
                    + " GROUP BY reason, rule, tool";
            Map<String, Long> reasons = new HashMap<>();
            Map<String, Long> rules = new HashMap<>();
            Map<String, Long> tools = new HashMap<>();
            Map<Long, Long> byDay = new TreeMap<>();
            try (PreparedStatement select = days.prepare(connection, sql, codes);
                 ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    long events = rows.getLong(5);
                    long day = rows.getLong(1);
                    if (rows.wasNull()) {
                        addTo(reasons, rows.getString(2), events);
                        addTo(rules, rows.getString(3), events);
                        addTo(tools, rows.getString(4), events);
                    } else {
                        byDay.put(day, events);
                    }
                }
            }
            return new EventCharts(mostFirst(reasons), mostFirst(rules), mostFirst(tools), byDay.entrySet().stream()
                    .map(day -> new DayCount(LocalDate.ofEpochDay(day.getKey()), day.getValue())).toList());
        });
    }

    /** A counted column of a table of hourly counts as the events hold it: '' back to no value. */
    private static String decoded(String column) {
        return "CASE WHEN " + column + " = '' THEN NULL ELSE SUBSTR(" + column + ", 2) END";
    }

    private static void addTo(Map<String, Long> counts, String key, long events) {
        if (key != null) {
            counts.merge(key, events, Long::sum);
        }
    }

    private static List<EventCount> mostFirst(Map<String, Long> counts) {
        return counts.entrySet().stream().map(count -> new EventCount(count.getKey(), count.getValue()))
                .sorted(Comparator.comparingLong(EventCount::count).reversed().thenComparing(EventCount::key))
                .toList();
    }

    /**
     * Deletes the events older than {@code age}: the retention purge, and the only delete of events there is.
     * Each slice takes its events off the tables of counts in its own transaction. Admin only: the caller checks
     * the role.
     *
     * @return how many events were deleted
     */
    public long purgeOlderThan(Duration age) {
        if (age.isNegative()) {
            throw new IllegalArgumentException("a retention age cannot be negative, got " + age);
        }
        Instant cutoff = database.clock().instant().minus(age);
        long deleted = 0;
        int slice;
        do {
            slice = database.write("purge governance events older than " + cutoff, connection -> {
                CountTables counts = new CountTables();
                int rows = 0;
                try (PreparedStatement delete = connection.prepareStatement("DELETE FROM governance_events"
                        + " WHERE id IN (SELECT id FROM governance_events WHERE event_time < ? LIMIT "
                        + PURGE_SLICE + ") RETURNING event_time, " + CountTables.COUNTED)) {
                    delete.setLong(1, Nanos.of(cutoff));
                    try (ResultSet gone = delete.executeQuery()) {
                        while (gone.next()) {
                            counts.count(gone);
                            rows++;
                        }
                    }
                }
                counts.subtractFrom(connection);
                return rows;
            });
            deleted += slice;
        } while (slice == PURGE_SLICE);
        return deleted;
    }

    /** A WHERE clause and its parameters, built from a filter. */
    private record Where(List<String> conditions, List<Object> parameters) {

        static Where of(EventFilter filter, Dialect dialect) {
            Where where = new Where(List.of(), List.of());
            if (filter.from() != null) {
                where = where.and("event_time >= ?", Nanos.of(filter.from()));
            }
            if (filter.until() != null) {
                where = where.and("event_time < ?", Nanos.of(filter.until()));
            }
            where = where.types(filter)
                    .equal("reason_code", filter.reasonCode())
                    .equal("rule_id", filter.ruleId())
                    .equal("tool_name", filter.toolName())
                    .equal("agent_configuration", filter.agentConfiguration())
                    .equal("actor", filter.actor())
                    .equal("run_id", filter.runId());
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
            return of(filter.withText(null).between(fromHour == null ? null : Parts.hourStart(fromHour),
                    untilHour == null ? null : Parts.hourStart(untilHour)), dialect)
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
         * hold: see {@link Parts#of}. A text is looked for only in the counted columns {@code searched}, those that
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
            where = where.types(filter)
                    .encoded("reason_code", filter.reasonCode())
                    .encoded("rule_id", filter.ruleId())
                    .encoded("tool_name", filter.toolName())
                    .encoded("agent_configuration", filter.agentConfiguration())
                    .encoded("actor", filter.actor());
            if (filter.text() != null) {
                // a row is found when one of its values is among those that contain the text
                List<String> columns = CountTables.Table.PEOPLE.columns().stream().filter(searched::contains)
                        .toList();
                where = where.containing(filter.text(), columns, column -> column + " IN "
                        + EventNames.matching(column, dialect, !column.equals("event_type")));
            }
            return where;
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

    /** A table of counts, and which of its rows to add up. */
    private record Counts(String table, Where where) {
    }

    /**
     * The SELECTs whose union a count adds up: the filter's range in the largest stretches of time it may add up
     * from tables of counts (whole days in the middle, whole hours about them), each from the smallest table by
     * that stretch that holds its criteria, and the events of the partial hours at its edges; for a text, also the
     * events of the whole hours that only their run id finds, which the counts do not hold. Where the counts do
     * not hold what the filter asks (a run) or the range spans no whole hour, all matching events. The SELECTs
     * may add conditions without parameters to the WHERE clauses they are given.
     */
    private record Parts(List<String> selects, List<Object> parameters) {

        /**
         * @param units the stretches of time the count may add up, the hour first and coarser ones after it; none
         *              for the events alone
         * @param events the SELECT over the events that match a WHERE clause
         * @param counts the SELECT over the rows of a table of counts that match a WHERE clause
         */
        static Parts of(Connection connection, EventFilter filter, Dialect dialect, CountTables.Unit[] units,
                        Function<Where, String> events, Function<Counts, String> counts) throws SQLException {
            Long fromHour = filter.from() == null ? null : -Math.floorDiv(-Nanos.of(filter.from()),
                    CountTables.NANOS_PER_HOUR);
            Long untilHour = filter.until() == null ? null : CountTables.hourOf(Nanos.of(filter.until()));
            boolean counted = units.length > 0 && filter.runId() == null && spansAny(fromHour, untilHour);
            if (!counted) {
                Where where = Where.of(filter, dialect);
                return new Parts(List.of(events.apply(where)), where.parameters());
            }
            List<Where> wheres = new ArrayList<>();
            List<String> selects = new ArrayList<>();
            if (fromHour != null && !filter.from().equals(hourStart(fromHour))) {
                wheres.add(Where.of(filter.between(filter.from(), hourStart(fromHour)), dialect));
            }
            if (untilHour != null && !filter.until().equals(hourStart(untilHour))) {
                wheres.add(Where.of(filter.between(hourStart(untilHour), filter.until()), dialect));
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
            return new Parts(selects, wheres.stream().flatMap(where -> where.parameters().stream()).toList());
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

        static Instant hourStart(long hour) {
            return Nanos.toInstant(hour * CountTables.NANOS_PER_HOUR);
        }

        String union() {
            return String.join(" UNION ALL ", selects);
        }

        PreparedStatement prepare(Connection connection, String sql) throws SQLException {
            return new Where(List.of(), parameters).prepare(connection, sql);
        }

        /** Prepares a statement that holds these parts' union first and {@code next}'s after it. */
        PreparedStatement prepare(Connection connection, String sql, Parts next) throws SQLException {
            List<Object> both = new ArrayList<>(parameters);
            both.addAll(next.parameters);
            return new Where(List.of(), both).prepare(connection, sql);
        }
    }
}
