package io.countersign.service;

import io.countersign.engine.event.DecisionRecord;
import io.countersign.engine.port.PersonWait;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.run.ApprovalDecision;
import io.countersign.engine.run.DecisionDeadlines;
import io.countersign.engine.run.RunDeadline;

/**
 * A claimed run's wait for a person as the store recorded it: from its pause to the decision claimed on it, with
 * the deadline its pause set. The approvals are the decision's own and those kept before it, on a card that needs
 * several.
 */
final class PersonWaits {
    private PersonWaits() {
    }

    static PersonWait of(StoredRun claimed, DecisionRecord decision, int keptApprovals) {
        boolean fallback = decision.decidedBy().equals(DecisionDeadlines.ACTOR);
        long approved = decision.verdicts().stream().filter(ApprovalDecision.CallVerdict::approved).count();
        String outcome = fallback ? "expired"
                : decision.kind() == DecisionRecord.Kind.INPUT ? "input"
                : approved == 0 ? "denied"
                : approved == decision.verdicts().size() ? "approved" : "mixed";
        RunDeadline deadline = claimed.pauseDeadline();
        return new PersonWait(claimed.runId(), claimed.agent(), outcome, decision.decidedBy(),
                approved > 0 ? keptApprovals + 1 : 0, deadline == null ? null : deadline.due(),
                deadline == null ? null : deadline.action().code(), claimed.waitingSince(), decision.decidedAt());
    }
}
