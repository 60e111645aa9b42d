package io.countersign.engine.event;

import java.util.List;
import java.util.Optional;

/**
 * One page of events, newest first, with the cursors that lead to its neighbours.
 *
 * @param events   the events of the page
 * @param next     for {@link PageRequest#after}: present while older events follow; else {@code null}
 * @param previous for {@link PageRequest#before}: present while newer events precede; {@code null} on the first
 *                 page
 */
public record EventPage(List<GovernanceEvent> events, EventCursor next, EventCursor previous) {
    public EventPage {
        events = List.copyOf(events);
    }

    public Optional<EventCursor> nextCursor() {
        return Optional.ofNullable(next);
    }

    public Optional<EventCursor> previousCursor() {
        return Optional.ofNullable(previous);
    }

    /** True for the newest page: there is nothing before it. */
    public boolean isFirst() {
        return previous == null;
    }
}
