package io.countersign.engine.event;

import java.time.Instant;
import java.util.Objects;

/** A position in the newest-first order of events: the time and id of one event. */
public record EventCursor(Instant time, String id) {
    public EventCursor {
        Objects.requireNonNull(time, "time");
        Objects.requireNonNull(id, "id");
    }
}
