package io.countersign.store;

import io.countersign.engine.event.DayCount;
import io.countersign.engine.event.EventCharts;
import io.countersign.engine.event.EventCount;
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
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The governance events: appended, never updated. Queries page through them newest first by the keyset
 * (time, id), so a page costs the same at the millionth event as at the first. The counts add up the hourly
 * counts that the append and the purge keep beside the events, wherever the filter allows.
 */
public final class EventStore implements EventSink {
    static final String COLUMNS = "id, event_time, event_type, reason_code, tool_name, rule_id, run_id,"
            + " agent_configuration, actor, model, detail";
    static final String INSERT = "INSERT INTO governance_events (" + COLUMNS
            + ", written_at_schema) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, " + Migrations.SCHEMA + ")";
    private static final int BATCH = 1000;
    /** Purged in slices, so that other writers get the lock between them. */
    private static final int PURGE_SLICE = 10_000;
    private static final long NANOS_PER_DAY = 86_400_000_000_000L;

    private final Database database;
    private final EventPages pages;

    EventStore(Database database) {
        this.database = database;
        this.pages = new EventPages(database);
    }

    /**
     * Appends one event. A decision's event ({@code approval_decided}, {@code input_submitted}) of a run that
     * carries out a claimed decision is recorded once per decision: when a process stopped after recording it and
     * before any call started, another process carries the same decision out again, and its event is not
     * recorded a second time.
     */
    @Override
    public void record(GovernanceEvent event) {
        if (!ofClaimedDecision(event)) {
            appendAll(List.of(event));
            return;
        }
        database.write("record the decision event of run " + event.runId(), connection -> {
            if (!decisionEventRecordedBefore(connection, event.runId())) {
                insert(connection, database.clock().instant(), List.of(event));
            }
            return null;
        });
    }

    /** A decision's event of a run, recorded once per decision. */
    private static boolean ofClaimedDecision(GovernanceEvent event) {
        return event.runId() != null
                && (event.type() == EventType.APPROVAL_DECIDED || event.type() == EventType.INPUT_SUBMITTED);
    }

    /**
     * Marks the run's claimed decision as having its event, in the caller's transaction; true when it had it
     * already. A run with no claimed decision (a decision event recorded outside the claim) has nothing to mark.
     */
    static boolean decisionEventRecordedBefore(Connection connection, String runId) throws SQLException {
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

    /**
     * The sink of a run's tool loop. Its events (a call refused by a rule, a write without approval) are committed
     * without waiting for the disk: the run's next state, which the same process commits durably once the loop
     * stops, makes them durable with it (under WAL a durable commit syncs every earlier frame of the log, on
     * PostgreSQL every earlier record), and they survive a crash of the process either way. Lost with the machine
     * before that, they go with the model's answer they came from. A decision's event keeps its durable commit.
     */
    public EventSink forRunLoop() {
        return event -> {
            if (!ofClaimedDecision(event)) {
                database.writeDeferred("append a governance event of run " + event.runId(), null, connection -> {
                    insert(connection, database.clock().instant(), List.of(event));
                    return null;
                });
            } else {
                record(event);
            }
        };
    }

    /** Appends the events in one transaction; none is stored if any fails (a repeated id, for one). */
    public void appendAll(List<GovernanceEvent> events) {
        if (events.isEmpty()) {
            return;
        }
        database.write("append " + events.size() + " governance event" + (events.size() == 1 ? "" : "s"),
                connection -> {
                    insert(connection, database.clock().instant(), events);
                    return null;
                });
    }

    /**
     * Inserts the events in batches, adds them to the tables of counts and their values to the searched names, and
     * chains them as one entry of the audit chain, in the caller's transaction.
     */
    static void insert(Connection connection, Instant at, List<GovernanceEvent> events) throws SQLException {
        insertUnchained(connection, events);
        AuditChain.events(connection, at, events);
    }

    /**
     * Inserts the events with their counts and names, for a caller that chains them ({@link AuditChain#eventsEntry})
     * itself, with the other entries of its transaction.
     */
    static void insertUnchained(Connection connection, List<GovernanceEvent> events) throws SQLException {
        if (events.size() == 1 && Dialect.of(connection) == Dialect.POSTGRESQL) {
            insertOneInOneStatement(connection, events.get(0));
            return;
        }
        try (PreparedStatement insert = StatementCache.forRows(connection, INSERT, events.size())) {
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

    /**
     * One event on PostgreSQL, the write most transactions make: the event, its counts and its names in one
     * statement, in the order the batched insert writes them.
     */
    private static void insertOneInOneStatement(Connection connection, GovernanceEvent event) throws SQLException {
        WritesInOneStatement writes = new WritesInOneStatement();
        insertUnchained(writes, event);
        writes.execute(connection);
    }

    /**
     * Adds the writes of one event with its counts and names, for a caller that chains it ({@link
     * AuditChain#eventsEntry}) itself, on PostgreSQL: in the order the batched insert writes them.
     */
    static void insertUnchained(WritesInOneStatement writes, GovernanceEvent event) {
        CountTables counts = new CountTables();
        counts.count(event);
        EventNames names = new EventNames();
        names.add(event);
        writes.add(INSERT, (insert, first) -> bind(insert, first, event));
        counts.addTo(writes);
        names.addTo(writes);
    }

    /** Binds an event to the parameters of {@link #INSERT}. */
    static void bind(PreparedStatement insert, GovernanceEvent event) throws SQLException {
        bind(insert, 1, event);
    }

    /** Binds an event to the parameters of an {@link #INSERT} from {@code first} on; returns the one after. */
    private static int bind(PreparedStatement insert, int first, GovernanceEvent event) throws SQLException {
        insert.setString(first, event.id());
        insert.setLong(first + 1, Nanos.of(event.time()));
        insert.setString(first + 2, event.type().code());
        insert.setString(first + 3, event.reasonCode());
        insert.setString(first + 4, event.toolName());
        insert.setString(first + 5, event.ruleId());
        insert.setString(first + 6, event.runId());
        insert.setString(first + 7, event.agentConfiguration());
        insert.setString(first + 8, event.actor());
        insert.setString(first + 9, event.model());
        insert.setString(first + 10, event.detail());
        return first + 11;
    }

    /** One page of the events that match the filter, newest first. */
    public EventPage page(EventFilter filter, PageRequest request) {
        return pages.page(filter, request);
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
            CountUnion parts = CountUnion.of(connection, filter, database.dialect(), CountTables.Unit.values(),
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
            CountUnion parts = byDay(connection, filter, shift);
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
    private CountUnion byDay(Connection connection, EventFilter filter, long shift) throws SQLException {
        return CountUnion.of(connection, filter, database.dialect(), shift % CountTables.NANOS_PER_HOUR == 0
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
            CountUnion days = byDay(connection, filter, shift);
            CountUnion codes = CountUnion.of(connection, filter, database.dialect(), CountTables.Unit.values(),
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
     * Each slice takes its events off the tables of counts and chains what it removed (who, the cutoff, the
     * removed rows' hashes) in its own transaction. Admin only: the caller checks the role.
     *
     * @param by who purges, as the audit chain records it
     * @return how many events were deleted
     */
    public long purgeOlderThan(Duration age, String by) {
        if (age.isNegative()) {
            throw new IllegalArgumentException("a retention age cannot be negative, got " + age);
        }
        Objects.requireNonNull(by, "by");
        Instant cutoff = database.clock().instant().minus(age);
        long deleted = 0;
        int slice;
        do {
            slice = database.write("purge governance events older than " + cutoff, connection -> {
                CountTables counts = new CountTables();
                AuditRows hashes = new AuditRows();
                List<AuditChain.Row> removed = new ArrayList<>();
                try (PreparedStatement delete = connection.prepareStatement(SharedStoreInit.purgeSlice(connection,
                        database.dialect(), PURGE_SLICE, "event_time, " + CountTables.COUNTED + ", " + COLUMNS))) {
                    delete.setLong(1, Nanos.of(cutoff));
                    try (ResultSet gone = delete.executeQuery()) {
                        while (gone.next()) {
                            counts.count(gone);
                            removed.add(new AuditChain.Row(gone.getString("id"),
                                    hashes.stored("governance_events", gone)));
                        }
                    }
                }
                counts.subtractFrom(connection);
                AuditChain.purge(connection, database.clock().instant(), removed, by, cutoff);
                return removed.size();
            });
            deleted += slice;
        } while (slice == PURGE_SLICE);
        return deleted;
    }
}
