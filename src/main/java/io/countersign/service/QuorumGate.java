package io.countersign.service;

import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.port.ApprovalProgress;
import io.countersign.engine.port.ApprovalQuorums;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.IdGenerator;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.PendingCall;
import java.util.List;
import java.util.Objects;

/**
 * Two-person approval between a decision's checks and its claim: an approval of calls whose agent or tools want
 * more than one person is counted, and only the one that completes the count goes on to be claimed, as the
 * decision, naming everyone who approved. A decision that approves nothing (a denial) passes at once: any denial
 * ends the wait. The checks before (four eyes, the approver's rights) hold for every one of the approvers.
 */
final class QuorumGate {
    private final ApprovalQuorums quorums;
    private final IdGenerator ids;

    QuorumGate(ApprovalQuorums quorums, IdGenerator ids) {
        this.quorums = Objects.requireNonNull(quorums, "quorums");
        this.ids = Objects.requireNonNull(ids, "ids");
    }

    /**
     * The approvals a decision with these verdicts needs on this paused state: the agent's quorum for the approved
     * calls' tools, or more when a declarative rule asked for more on one of them.
     */
    static int required(AgentConfiguration configuration, PausedState state,
                        List<Decision.CallVerdict> verdicts) {
        return required(configuration, verdicts.stream().filter(Decision.CallVerdict::approved)
                .map(verdict -> state.calls().get(verdict.index())).toList());
    }

    private static int required(AgentConfiguration configuration, List<PendingCall> approved) {
        int byRules = approved.stream().mapToInt(PendingCall::askedApprovals).max().orElse(1);
        return Math.max(byRules, configuration.approvals().required(approved.stream()
                .map(call -> call.call().name()).toList()));
    }

    /** How far the run's current card is: what approving all its calls needs, and who approved it already. */
    ApprovalProgress progress(AgentConfiguration configuration, PausedState state) {
        int required = required(configuration, state.awaitingApproval());
        if (required <= 1) {
            return ApprovalProgress.SINGLE;
        }
        return new ApprovalProgress(required, quorums.approvals(state.runId(), state.digest()).stream()
                .map(approval -> new ApprovalProgress.Approver(approval.approvedBy(), approval.approvedAt()))
                .toList());
    }

    /**
     * Counts the checked decision: claimable as it is when it needs one person; claimable, its summary naming the
     * earlier approvers, when it is the last approval; otherwise the answer for the person (their approval kept,
     * or why it does not count).
     */
    DecisionChecks.Checked count(DecisionChecks.Checked.Claimable ready) {
        if (!(ready.decision() instanceof Decision.Approval decision)) {
            return ready;
        }
        PausedState state = ready.run().pausedState();
        int required = required(ready.configuration(), state, decision.verdicts());
        if (required <= 1) {
            return ready;
        }
        String runId = decision.runId();
        // who approved which run of which agent when, as a decision's event says it: never the calls' arguments
        GovernanceEvent counted = new GovernanceEvent(ids.next(), decision.decidedAt(), EventType.APPROVAL_COUNTED,
                null, state.waitingToolNames().get(0), null, runId, ready.run().agent(), decision.decidedBy(),
                state.model().name(), null);
        ApprovalQuorums.Tally tally = quorums.approve(decision, required, counted);
        if (tally instanceof ApprovalQuorums.Tally.Last last) {
            List<String> names = last.before().stream().map(ApprovalQuorums.Approval::approvedBy).toList();
            Decision named = decision.withSummary(decision.summary() + " (" + required + " approvals: "
                    + String.join(", ", names) + " and " + decision.decidedBy() + ")");
            return new DecisionChecks.Checked.Claimable(ready.run(), ready.configuration(), named);
        }
        // kept, and the card waits for more; or refused
        return new DecisionChecks.Checked.Refused((DecisionResult) tally);
    }
}
