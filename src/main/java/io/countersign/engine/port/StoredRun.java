package io.countersign.engine.port;

import io.countersign.engine.call.ToolInvocationHistory;
import io.countersign.engine.chat.ChatMessage;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.RunCounters;
import io.countersign.engine.agent.RunDeadline;
import io.countersign.engine.state.RunStatus;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A run as the store keeps it. {@code pausedState} is set while the run waits; {@code transcript},
 * {@code history} and {@code counters} are those of its last outcome. {@code lastDecision} is the most recent
 * committed decision, if any. {@code unknownOutcomeCalls} lists the ids of calls that had started executing
 * when the process stopped and whose outcome nobody knows: such a run is never resumed on its own. {@code epoch}
 * is the run's driving epoch as read: a run handed out by a claim or a take-over carries the epoch its new driver
 * holds, its {@link #lease()}. {@code pauseDeadline} is the deadline its last pause set, kept until the run's next
 * outcome (while it waits, and while a decision on that pause is carried out), or {@code null} without one.
 */
public record StoredRun(String runId, String agent, String initiator, String prompt, boolean unattended,
                        RunStatus status, Instant createdAt, Instant updatedAt, Instant waitingSince,
                        PausedState pausedState, List<ChatMessage> transcript, ToolInvocationHistory history,
                        RunCounters counters, String failureReason, String failureMessage,
                        Decision lastDecision, List<String> unknownOutcomeCalls, long epoch,
                        RunDeadline pauseDeadline) {
    public StoredRun {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(status, "status");
        transcript = transcript == null ? List.of() : List.copyOf(transcript);
        unknownOutcomeCalls = unknownOutcomeCalls == null ? List.of() : List.copyOf(unknownOutcomeCalls);
    }

    /** The right to drive the run's stretch, for the one this run was handed to by a claim or a take-over. */
    public RunLease lease() {
        return new RunLease(runId, epoch);
    }

    public boolean outcomeUnknown() {
        return !unknownOutcomeCalls.isEmpty();
    }

    /**
     * True when the run is a gateway's whose card waits on calls its MCP host made as tasks (their ids begin with
     * {@link HostedRuns#TASK_CALL}): the card outlives its gateway, for the next gateway of the same profile
     * and person to take over ({@link HostedRuns#adoptHosted}).
     */
    public boolean waitsOnHostTask() {
        return status == RunStatus.WAITING_FOR_APPROVAL && pausedState != null
                && pausedState.model().hostDriven() && !pausedState.awaitingApproval().isEmpty()
                && pausedState.awaitingApproval().stream()
                .allMatch(pending -> pending.call().id().startsWith(HostedRuns.TASK_CALL));
    }
}
