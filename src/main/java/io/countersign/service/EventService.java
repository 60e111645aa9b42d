package io.countersign.service;

import io.countersign.engine.Actor;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.event.DayCount;
import io.countersign.engine.event.EventCharts;
import io.countersign.engine.event.EventCount;
import io.countersign.engine.event.EventFilter;
import io.countersign.engine.event.EventPage;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.event.PageRequest;
import java.io.IOException;
import java.io.Writer;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;

/**
 * The supervisor's use cases over the recorded governance events: browse, count, export, and the admin's
 * retention purge. Every method checks the acting user's roles and throws {@link NotPermittedException} when
 * they do not allow it.
 */
public interface EventService {

    /** One page of the matching events, newest first, by keyset (a page costs the same anywhere in the list). */
    EventPage page(Actor actor, EventFilter filter, PageRequest request);

    /** How many matching events share each value of the dimension, most first; events without one are left out. */
    List<EventCount> counts(Actor actor, EventFilter filter, EventDimension dimension);

    /** How many matching events fell on each day (days begin at midnight at the offset), oldest day first. */
    List<DayCount> countsByDay(Actor actor, EventFilter filter, ZoneOffset offset);

    /**
     * The matching events counted by reason, rule and tool and per day (days begin at midnight at the offset), in
     * one read: what the charts of the denial browser show.
     */
    EventCharts charts(Actor actor, EventFilter filter, ZoneOffset offset);

    /**
     * Writes every matching event as CSV, newest first, one page at a time, so a million events never sit in
     * memory at once. The header is {@link EventCsv#HEADER}.
     *
     * @return how many events were written
     * @throws IOException when the writer fails; what was written stays written
     */
    long exportCsv(Actor actor, EventFilter filter, Writer out) throws IOException;

    /** Deletes the events older than {@code age}. Admins only. @return how many were deleted */
    long purgeOlderThan(Actor actor, Duration age);

    /** What events are counted by. */
    enum EventDimension {
        REASON,
        RULE,
        TOOL
    }

    /**
     * The calls an operator denied with the decision an {@code approval_decided} event records, with the reason
     * each was given (the reasons live in the decision record, never in events); none for other events, or when
     * the decision is no longer stored.
     */
    List<Decision.CallVerdict> denials(Actor actor, GovernanceEvent event);
}
