package io.countersign.console.denials;

import io.countersign.console.common.Messages;
import io.countersign.console.common.Tasks;
import io.countersign.engine.Actor;
import io.countersign.engine.event.DayCount;
import io.countersign.engine.event.EventFilter;
import io.countersign.service.EventService;
import io.countersign.service.Operation;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

/** The retention purge of the denial browser, for admins: how many events it would delete, then the deletion. */
public final class EventPurge {
    private final EventService service;
    private final Actor actor;
    private final Executor executor;
    private final Messages messages;
    private final Clock clock;
    private final Runnable purged;
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper("");

    /** @param purged told once a purge has deleted, so that the browser shows its filter again */
    EventPurge(EventService service, Actor actor, Executor executor, Messages messages, Clock clock,
               Runnable purged) {
        this.service = Objects.requireNonNull(service, "service");
        this.actor = Objects.requireNonNull(actor, "actor");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.messages = Objects.requireNonNull(messages, "messages");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.purged = Objects.requireNonNull(purged, "purged");
    }

    /** Whether this person may purge old events: admins only (the service refuses everyone else anyway). */
    public boolean mayPurge() {
        return Operation.PURGE_EVENTS.allowedFor(actor.roles());
    }

    /** Counts, in the background, the events that a purge of everything older than {@code days} would delete. */
    public void countOlderThan(int days, Consumer<Long> then) {
        requireDays(days);
        Instant cutoff = clock.instant().minus(Duration.ofDays(days));
        Tasks.create(() -> service.countsByDay(actor, EventFilter.all().between(null, cutoff), ZoneOffset.UTC)
                        .stream().mapToLong(DayCount::count).sum())
                .onSuccess(then::accept)
                .onError(this::failed)
                .runOnce(executor);
    }

    /** Deletes, in the background, every event older than {@code days}. */
    public void purge(int days) {
        requireDays(days);
        Tasks.create(() -> service.purgeOlderThan(actor, Duration.ofDays(days)))
                .onSuccess(deleted -> {
                    status.set(messages.get("denials.purge.done", deleted, days));
                    purged.run();
                })
                .onError(this::failed)
                .runOnce(executor);
    }

    private void failed(Throwable failure) {
        status.set(messages.get("denials.purge.failed", String.valueOf(failure.getMessage())));
    }

    private static void requireDays(int days) {
        if (days < 1) {
            throw new IllegalArgumentException("a purge keeps at least one day of events, not " + days);
        }
    }

    /** What the last purge did. */
    public ReadOnlyStringProperty statusProperty() {
        return status.getReadOnlyProperty();
    }
}
