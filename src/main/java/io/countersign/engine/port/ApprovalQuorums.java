package io.countersign.engine.port;

import io.countersign.engine.event.DecisionRecord;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.run.ApprovalDecision;
import io.countersign.engine.run.RunStatus;
import java.time.Instant;
import java.util.List;

/**
 * Port: the approvals a card collects while it needs more than one person. Every approval but the last is kept
 * here, one per person and card; the last is the decision itself, claimed through {@link RunRepository#claim}.
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
    Tally approve(DecisionRecord approval, int required, GovernanceEvent event);

    /** The approvals kept for the run's card of this digest, oldest first. */
    List<Approval> approvals(String runId, String digest);

    /** One person's approval of a card. */
    record Approval(String approvedBy, Instant approvedAt, List<ApprovalDecision.CallVerdict> verdicts) {
        public Approval {
            verdicts = List.copyOf(verdicts);
        }
    }

    /** What became of an approval. */
    sealed interface Tally {
        /** Kept: the card now has these approvals and waits for more. */
        record Kept(List<Approval> approvals) implements Tally {
            public Kept {
                approvals = List.copyOf(approvals);
            }
        }

        /** The last approval: with those before it the card has its count, and the caller claims the decision. */
        record Last(List<Approval> before) implements Tally {
            public Last {
                before = List.copyOf(before);
            }
        }

        /** This person has approved this card already. */
        record AlreadyApproved(Approval earlier) implements Tally {
        }

        /** Someone approved this card with other verdicts; approvals add up only when they agree. */
        record OtherVerdicts(Approval earlier) implements Tally {
        }

        /** The run still waits, but on another card. */
        record Stale(String currentDigest) implements Tally {
        }

        /** The run does not wait for approval, or does not exist. */
        record NotWaiting(RunStatus status) implements Tally {
        }
    }
}
