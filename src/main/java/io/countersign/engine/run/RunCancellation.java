package io.countersign.engine.run;

/** Port: whether someone asked to cancel a run; the loop asks before each round and each call. */
@FunctionalInterface
public interface RunCancellation {
    RunCancellation NEVER = runId -> false;

    boolean cancelled(String runId);
}
