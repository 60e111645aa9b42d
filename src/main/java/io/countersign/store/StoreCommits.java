package io.countersign.store;

/**
 * How many write transactions a store committed since it opened: {@code durable} ones waited for the disk (an
 * fsync on SQLite under {@code synchronous=FULL}, a WAL flush on PostgreSQL); {@code deferred} ones did not, and
 * were made durable by the next durable one (or by the database's background writer). Both survive a crash of the
 * process; a deferred one may be lost with the machine. For benchmarks and diagnostics.
 */
public record StoreCommits(long durable, long deferred) {
    /** The commits made since an earlier count. */
    public StoreCommits since(StoreCommits earlier) {
        return new StoreCommits(durable - earlier.durable, deferred - earlier.deferred);
    }
}
