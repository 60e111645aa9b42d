package io.countersign.console.common;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Objects;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;

/**
 * The time the screens show ages against ("waiting 4 min"). It moves only when {@link #tick()} is called, so
 * every text on screen agrees, and a test can move it by hand.
 */
public final class LiveClock {
    private final Clock clock;
    private final ReadOnlyObjectWrapper<Instant> now;

    public LiveClock(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.now = new ReadOnlyObjectWrapper<>(clock.instant());
    }

    public ReadOnlyObjectProperty<Instant> nowProperty() {
        return now.getReadOnlyProperty();
    }

    public Instant now() {
        return now.get();
    }

    /** The zone times of day are shown in. */
    public ZoneId zone() {
        return clock.getZone();
    }

    /** Reads the clock again; every text bound to {@link #nowProperty()} follows. */
    public void tick() {
        now.set(clock.instant());
    }
}
