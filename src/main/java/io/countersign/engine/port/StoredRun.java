package io.countersign.engine.port;

import io.countersign.engine.event.DecisionRecord;
import io.countersign.engine.invocation.ToolInvocationHistory;
import io.countersign.engine.run.PausedState;
import io.countersign.engine.run.RunCounters;
import io.countersign.engine.run.RunStatus;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A run as the store keeps it. {@code pausedState} is set while the run waits; {@code transcript},
 * {@code history} and {@code counters} are those of its last outcome. {@code lastDecision} is the most recent
 * committed decision, if any. {@code unknownOutcomeCalls} lists the ids of calls that had started executing
 * when the process stopped and whose outcome nobody knows: such a run is never resumed on its own.
 */
public record StoredRun(String runId, String agent, String initiator, String prompt, boolean unattended,
                        RunStatus status, Instant createdAt, Instant updatedAt, Instant waitingSince,
                        PausedState pausedState, List<ChatMessage> transcript, ToolInvocationHistory history,
                        RunCounters counters, String failureReason, String failureMessage,
                        DecisionRecord lastDecision, List<String> unknownOutcomeCalls) {
    public StoredRun {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(status, "status");
        transcript = transcript == null ? List.of() : List.copyOf(transcript);
        unknownOutcomeCalls = unknownOutcomeCalls == null ? List.of() : List.copyOf(unknownOutcomeCalls);
    }

    public boolean outcomeUnknown() {
        return !unknownOutcomeCalls.isEmpty();
    }
}
