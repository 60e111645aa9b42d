package io.countersign.service;

import io.countersign.engine.run.RunStatus;
import java.time.Instant;
import java.util.Objects;

/**
 * One line of the inbox: a run that waits for a person, with what the list shows at a glance.
 *
 * @param firstTool     the first call that waits (approval) or the input tool
 * @param pendingCount  calls that wait for a verdict (0 for an input pause)
 * @param refusedCount  calls a rule already refused, shown on the card
 * @param hasWrite      a waiting call has a write effect
 * @param hasRemote     a waiting call goes to a remote (MCP) tool
 */
public record WaitingRun(String runId, RunStatus status, String agent, String initiator, Instant waitingSince,
                         String prompt, String firstTool, int pendingCount, int refusedCount, boolean hasWrite,
                         boolean hasRemote, String digest) {
    public WaitingRun {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(waitingSince, "waitingSince");
    }
}
