package io.countersign.store;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * How a store is opened.
 *
 * @param busyTimeout how long to wait for another process's lock (SQLite) or for a connection (PostgreSQL)
 *                    before giving up with a {@link StoreUnavailableException}
 * @param clock       stamps admin changes and measures the age of events for the retention purge
 */
public record StoreOptions(Duration busyTimeout, Clock clock) {
    public static final Duration DEFAULT_BUSY_TIMEOUT = Duration.ofSeconds(5);

    public StoreOptions {
        Objects.requireNonNull(busyTimeout, "busyTimeout");
        Objects.requireNonNull(clock, "clock");
        if (busyTimeout.isNegative() || busyTimeout.toMillis() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("busyTimeout must be between 0 and " + Integer.MAX_VALUE
                    + " ms, got " + busyTimeout);
        }
    }

    /** A five-second busy timeout and the system clock. */
    public static StoreOptions defaults() {
        return new StoreOptions(DEFAULT_BUSY_TIMEOUT, Clock.systemUTC());
    }

    public StoreOptions withBusyTimeout(Duration timeout) {
        return new StoreOptions(timeout, clock);
    }

    public StoreOptions withClock(Clock other) {
        return new StoreOptions(busyTimeout, other);
    }
}
