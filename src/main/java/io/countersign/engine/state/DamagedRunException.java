package io.countersign.engine.state;

import java.util.Objects;

/**
 * A stored run cannot be read back: its paused state, transcript or history is damaged, or its card is not the one
 * recorded at its pause. Only this run is affected; nothing was read from it, executed or written.
 */
public final class DamagedRunException extends RunStateException {
    private static final String CHANGED = "card changed behind Countersign's back since it paused";
    private final String runId;
    private final String damage;

    public DamagedRunException(String runId, String damage, Throwable cause) {
        this(runId, damage, "its stored state is damaged (" + damage + ")", cause);
    }

    private DamagedRunException(String runId, String damage, String why, Throwable cause) {
        super("run " + Objects.requireNonNull(runId, "runId") + " cannot be shown or decided: " + why
                + "; nothing was changed", cause);
        this.runId = runId;
        this.damage = damage;
    }

    /**
     * The run's stored card is not the one recorded when it paused: its digest then and the card now differ, so it
     * was changed behind Countersign's back (a hand-written statement against the store, a restored copy).
     */
    public static DamagedRunException changedBehindCountersign(String runId) {
        return new DamagedRunException(runId, CHANGED, "its card was changed behind Countersign's back since it"
                + " paused, and no longer matches the digest recorded then", null);
    }

    public String runId() {
        return runId;
    }

    /** What is damaged, in a few words, such as {@code damaged paused state: not valid JSON}. */
    public String damage() {
        return damage;
    }
}
