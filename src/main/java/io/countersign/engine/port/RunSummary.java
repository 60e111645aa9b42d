package io.countersign.engine.port;

import io.countersign.engine.state.RunStatus;
import java.time.Instant;
import java.util.Objects;

/**
 * A run as a list of recent runs (or of runs to settle) shows it: who started it, when, its status, the reason it
 * failed ({@code failure}, else {@code null}) and whether an outcome is unknown. A run whose stored state does not
 * decode is listed all the same, with its {@code damage} said, so that it hides no other run; it can only be
 * settled as failed.
 */
public record RunSummary(String runId, String agent, String initiator, RunStatus status, Instant startedAt,
                         Instant updatedAt, String prompt, String failure, boolean outcomeUnknown, String damage) {
    public RunSummary {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(status, "status");
    }

    /** The summary of a stored run that decoded whole. */
    public static RunSummary of(StoredRun run) {
        return new RunSummary(run.runId(), run.agent(), run.initiator(), run.status(), run.createdAt(),
                run.updatedAt(), run.prompt(), run.failureReason(), run.outcomeUnknown(), null);
    }

    /** A run whose stored state does not decode: listed, with what is damaged. */
    public static RunSummary damaged(String runId, String agent, String initiator, String prompt,
                                     RunStatus status, Instant createdAt, Instant updatedAt, String damage) {
        return new RunSummary(runId, agent, initiator, status, createdAt, updatedAt, prompt, null, false,
                Objects.requireNonNull(damage, "damage"));
    }

    public boolean damaged() {
        return damage != null;
    }
}
