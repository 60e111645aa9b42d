package io.countersign.service;

import io.countersign.engine.chat.ChatMessage;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.PendingCall;
import io.countersign.engine.state.RunOutcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** What became of the calls a decision let run, read from the results the model was given after the pause. */
final class ResumedCalls {
    private static final String ERROR = "Error:";
    /** Every refusal of the engine ends so; a call that ran and failed says what went wrong instead. */
    private static final String NOT_EXECUTED = "Nothing was executed.";

    private ResumedCalls() {
    }

    /** The approved calls, or the call given its input, whose result was an error; in the turn's order. */
    static List<DecisionResult.FailedCall> failed(PausedState before, Decision decision, RunOutcome after) {
        Set<Integer> approved = decision.approvedCalls();
        List<ChatMessage> results = after.transcript().subList(Math.min(before.transcript().size(),
                after.transcript().size()), after.transcript().size());
        List<DecisionResult.FailedCall> failed = new ArrayList<>();
        for (PendingCall call : before.calls()) {
            boolean decided = call.disposition() == PendingCall.Disposition.AWAITS_INPUT
                    || approved.contains(call.index());
            if (!decided) {
                continue;
            }
            results.stream()
                    .filter(message -> message.role() == ChatMessage.Role.TOOL
                            && call.call().id().equals(message.toolCallId()) && message.content().startsWith(ERROR))
                    .findFirst()
                    .ifPresent(message -> failed.add(new DecisionResult.FailedCall(call.call().name(),
                            message.content().strip().endsWith(NOT_EXECUTED),
                            message.content().substring(ERROR.length()).strip())));
        }
        return failed;
    }
}
