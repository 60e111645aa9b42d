package io.countersign.store;

import io.countersign.engine.event.EventCursor;
import io.countersign.engine.event.EventFilter;
import io.countersign.engine.event.EventPage;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.event.PageRequest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Pages of governance events, newest first by the keyset (time, id), so that a page costs the same at the
 * millionth event as at the first; a newest-first page starts no earlier than the hourly counts show it needs to.
 */
final class EventPages {
    private final Database database;

    EventPages(Database database) {
        this.database = database;
    }

    /** One page of the events that match the filter, newest first. */
    EventPage page(EventFilter filter, PageRequest request) {
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
        String sql = "SELECT " + EventStore.COLUMNS + " FROM governance_events" + where.clause() + " ORDER BY " + order
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
}
