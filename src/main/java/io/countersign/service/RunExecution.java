package io.countersign.service;

import io.countersign.engine.call.ToolInvocationObservation;
import io.countersign.engine.state.RunStatus;
import java.time.Instant;
import java.util.List;

/**
 * Where a run stands and what its calls did: every observation of its history (tool, outcome, target), the
 * model's rounds and tokens, and the calls whose outcome a crash made unknown.
 *
 * @param historyComplete the history is proven whole (false for a run resumed from damaged or legacy state)
 */
public record RunExecution(String runId, RunStatus status, String agent, String initiator, boolean unattended,
                           Instant createdAt, Instant updatedAt, int iterations, long promptTokens,
                           long completionTokens, List<ToolInvocationObservation> calls, boolean historyComplete,
                           List<String> unknownOutcomeCalls) {
    public RunExecution {
        calls = List.copyOf(calls);
        unknownOutcomeCalls = List.copyOf(unknownOutcomeCalls);
    }
}
