package io.countersign.service;

import io.countersign.engine.run.RecentRunSummary;
import io.countersign.engine.run.RunStatus;
import java.time.Instant;

/**
 * A run in a list of recent runs; {@code failure} is the reason of a failed run, else {@code null}; {@code damage}
 * says what of the run's stored state is damaged, or is {@code null}: a damaged run is listed all the same, and
 * can only be settled as failed.
 */
public record RunSummary(String runId, String agent, String initiator, RunStatus status, Instant startedAt,
                         Instant updatedAt, String prompt, String failure, boolean outcomeUnknown, String damage) {

    /** The summary of a run as the store lists it. */
    static RunSummary of(RecentRunSummary run) {
        return new RunSummary(run.runId(), run.agent(), run.initiator(), run.status(), run.createdAt(),
                run.updatedAt(), run.prompt(), run.failureReason(), run.outcomeUnknown(), run.damage());
    }

    public boolean damaged() {
        return damage != null;
    }
}
