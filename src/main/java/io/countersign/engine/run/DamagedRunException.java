package io.countersign.engine.run;

import java.util.Objects;

/**
 * A stored run cannot be read back: its paused state, transcript or history is damaged. Only this run is
 * affected; nothing was read from it, executed or written.
 */
public final class DamagedRunException extends RunStateException {
    private final String runId;
    private final String damage;

    public DamagedRunException(String runId, String damage, Throwable cause) {
        super("run " + Objects.requireNonNull(runId, "runId") + " cannot be shown or decided: its stored state is"
                + " damaged (" + damage + "); nothing was changed", cause);
        this.runId = runId;
        this.damage = damage;
    }

    public String runId() {
        return runId;
    }

    /** What is damaged, in a few words, such as {@code damaged paused state: not valid JSON}. */
    public String damage() {
        return damage;
    }
}
