package io.countersign.store;

import io.countersign.engine.Actor;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The users read so far, by name, until the store's change feed says users or roles may have changed (here or in
 * another process): every operation that checks roles asks for them, and most of the time nothing changed.
 */
final class RoleCache {
    private final Map<String, Optional<Actor>> known = new HashMap<>();
    /** Moves on every {@link #forget}, so that a read which began before it is not kept. */
    private long generation;

    /** The cached answer for the name, or what {@code load} reads now (kept unless a change came meanwhile). */
    Optional<Actor> get(String name, Supplier<Optional<Actor>> load) {
        long before;
        synchronized (this) {
            Optional<Actor> cached = known.get(name);
            if (cached != null) {
                return cached;
            }
            before = generation;
        }
        Optional<Actor> read = load.get();
        synchronized (this) {
            if (generation == before) {
                known.put(name, read);
            }
        }
        return read;
    }

    /** Drops everything: the next question reads the store again. */
    synchronized void forget() {
        generation++;
        known.clear();
    }
}
