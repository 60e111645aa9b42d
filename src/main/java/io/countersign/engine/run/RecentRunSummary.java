package io.countersign.engine.run;

import io.countersign.engine.port.StoredRun;
import java.time.Instant;
import java.util.Objects;

/**
 * A run as a list of recent runs shows it: who started it, when, its status, the reason it failed and whether an
 * outcome is unknown. A run whose stored state does not decode is listed all the same, with its {@code damage}
 * said, so that it hides no other run.
 */
public record RecentRunSummary(String runId, String agent, String initiator, String prompt, RunStatus status,
                               Instant createdAt, Instant updatedAt, String failureReason, boolean outcomeUnknown,
                               String damage) {
    public RecentRunSummary {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(status, "status");
    }

    /** The summary of a stored run that decoded whole. */
    public static RecentRunSummary of(StoredRun run) {
        return new RecentRunSummary(run.runId(), run.agent(), run.initiator(), run.prompt(), run.status(),
                run.createdAt(), run.updatedAt(), run.failureReason(), run.outcomeUnknown(), null);
    }

    /** A run whose stored state does not decode: listed, with what is damaged. */
    public static RecentRunSummary damaged(String runId, String agent, String initiator, String prompt,
                                           RunStatus status, Instant createdAt, Instant updatedAt, String damage) {
        return new RecentRunSummary(runId, agent, initiator, prompt, status, createdAt, updatedAt, null, false,
                Objects.requireNonNull(damage, "damage"));
    }
}
