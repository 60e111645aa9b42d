package io.countersign.store;

/** Hears that something of a kind changed; it is told nothing else, and reloads what it needs. */
@FunctionalInterface
public interface ChangeListener {

    /** Called on the feed's own thread, never on the thread that made the change. */
    void changed(ChangeKind kind);
}
