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
 * @param drivesRuns  whether this process may drive runs (start them, carry out decisions, take over those of
 *                    stopped processes): only then is it registered in the store, a commit at open and one at
 *                    close. A process that reads, or changes only settings and users, leaves no work behind.
 * @param password    a PostgreSQL password the person typed for this process, handed to the driver only; {@code null}
 *                    when the URL's reference or {@code ~/.pgpass} gives it (never shown by {@link #toString()})
 * @param migrateUnderOlderProcesses whether a migration goes ahead while processes of an older build still have the
 *                    store open; by default it is refused, naming them
 */
public record StoreOptions(Duration busyTimeout, Clock clock, boolean drivesRuns, String password,
                           boolean migrateUnderOlderProcesses) {
    public static final Duration DEFAULT_BUSY_TIMEOUT = Duration.ofSeconds(5);

    public StoreOptions {
        Objects.requireNonNull(busyTimeout, "busyTimeout");
        Objects.requireNonNull(clock, "clock");
        if (busyTimeout.isNegative() || busyTimeout.toMillis() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("busyTimeout must be between 0 and " + Integer.MAX_VALUE
                    + " ms, got " + busyTimeout);
        }
    }

    /** A five-second busy timeout, the system clock, and a process that drives runs. */
    public static StoreOptions defaults() {
        return new StoreOptions(DEFAULT_BUSY_TIMEOUT, Clock.systemUTC(), true, null, false);
    }

    public StoreOptions withBusyTimeout(Duration timeout) {
        return new StoreOptions(timeout, clock, drivesRuns, password, migrateUnderOlderProcesses);
    }

    public StoreOptions withClock(Clock other) {
        return new StoreOptions(busyTimeout, other, drivesRuns, password, migrateUnderOlderProcesses);
    }

    /** For a process that drives no run: it is not registered, and the store refuses it every run it would own. */
    public StoreOptions withoutDrivingRuns() {
        return new StoreOptions(busyTimeout, clock, false, password, migrateUnderOlderProcesses);
    }

    /** With the password a person typed for a PostgreSQL login; it wins over the URL's reference and pgpass. */
    public StoreOptions withPassword(String typed) {
        return new StoreOptions(busyTimeout, clock, drivesRuns, Objects.requireNonNull(typed, "typed"),
                migrateUnderOlderProcesses);
    }

    /** For the one process told to migrate although older ones still have the store open ({@code --force}). */
    public StoreOptions migratingUnderOlderProcesses() {
        return new StoreOptions(busyTimeout, clock, drivesRuns, password, true);
    }

    @Override
    public String toString() {
        return "StoreOptions[busyTimeout=" + busyTimeout + ", clock=" + clock + ", drivesRuns=" + drivesRuns
                + (password == null ? "" : ", password given")
                + (migrateUnderOlderProcesses ? ", migrateUnderOlderProcesses" : "") + "]";
    }
}
