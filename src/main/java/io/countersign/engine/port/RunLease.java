package io.countersign.engine.port;

import java.util.Objects;

/**
 * The right to drive one stretch of a run, as the store handed it out: at its creation, a claim, a worker's claim
 * from the queue or a take-over after a crash. Each of those grows the run's epoch, so a write made under an older
 * lease (a driver frozen past its lease, or on another thread that lost the run) is refused.
 *
 * @param epoch the run's epoch when this lease was taken
 */
public record RunLease(String runId, long epoch) {
    public RunLease {
        Objects.requireNonNull(runId, "runId");
    }
}
