package io.countersign.service;

import io.countersign.engine.agent.DecisionDeadlines;
import io.countersign.engine.agent.RunDeadline;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.port.PersonWait;
import io.countersign.engine.port.StoredRun;

/**
 * A claimed run's wait for a person as the store recorded it: from its pause to the decision claimed on it, with
 * the deadline its pause set. The approvals are the decision's own and those kept before it, on a card that needs
 * several.
 */
final class PersonWaits {
    private PersonWaits() {
    }

    static PersonWait of(StoredRun claimed, Decision decision, int keptApprovals) {
        boolean fallback = decision.decidedBy().equals(DecisionDeadlines.ACTOR);
        int approved = decision.approved();
        String outcome = fallback ? "expired"
                : decision instanceof Decision.Input ? "input"
                : approved == 0 ? "denied"
                : decision.denied() == 0 ? "approved" : "mixed";
        RunDeadline deadline = claimed.pauseDeadline();
        return new PersonWait(claimed.runId(), claimed.agent(), outcome, decision.decidedBy(),
                approved > 0 ? keptApprovals + 1 : 0, deadline == null ? null : deadline.due(),
                deadline == null ? null : deadline.action().code(), claimed.waitingSince(), decision.decidedAt());
    }
}
