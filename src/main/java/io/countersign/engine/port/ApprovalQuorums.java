package io.countersign.engine.port;

import io.countersign.engine.decision.Decision;
import io.countersign.engine.event.GovernanceEvent;
import java.time.Instant;
import java.util.List;

/**
 * Port: the approvals a card collects while it needs more than one person. Every approval but the last is kept
 * here, one per person and card; the last is the decision itself, claimed through {@link RunClaims#claim}.
 * Implementations take each approval atomically on the run's row, so of several people in several processes each
 * is counted once and at most one sees the count reached by its own approval.
 */
public interface ApprovalQuorums {

    /**
     * Counts an approval of the card the run waits on now ({@code approval.digest()}), of a card that needs
     * {@code required} approvals: it is kept when it is not the last one, and reported as the last one (kept
     * nowhere: the caller claims it as the decision) when the approvals before it make up the rest. A kept
     * approval records {@code event} with it, in the same transaction.
     */
    Tally approve(Decision.Approval approval, int required, GovernanceEvent event);

    /** The approvals kept for the run's card of this digest, oldest first. */
    List<Approval> approvals(String runId, String digest);

    /** One person's approval of a card. */
    record Approval(String approvedBy, Instant approvedAt, List<Decision.CallVerdict> verdicts) {
        public Approval {
            verdicts = List.copyOf(verdicts);
        }
    }

    /**
     * What became of an approval: {@link DecisionResult.PartlyApproved} (kept; the card waits for more),
     * {@link Last}, or a refusal: {@link DecisionResult.NotPermitted} when this person approved the card already or
     * someone approved it with other verdicts, {@link DecisionResult.Stale} when the run waits on another card,
     * {@link DecisionResult.NotWaiting} when it does not wait for approval or does not exist.
     */
    sealed interface Tally permits DecisionResult.PartlyApproved, Tally.Last, DecisionResult.Refusal {
        /** The last approval: with those before it the card has its count, and the caller claims the decision. */
        record Last(List<Approval> before) implements Tally {
            public Last {
                before = List.copyOf(before);
            }
        }
    }
}
