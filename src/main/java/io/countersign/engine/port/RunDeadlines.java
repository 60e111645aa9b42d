package io.countersign.engine.port;

import io.countersign.engine.agent.RunDeadline;
import io.countersign.engine.event.GovernanceEvent;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Port: the deadlines of waiting runs, set by the store when a run pauses (from its agent's deadlines) and kept
 * until it stops waiting. The fallback itself is a decision, claimed like any other ({@link RunClaims#claim}):
 * a human decision and a deadline never both win. Escalating and extending are conditional single updates: of
 * several processes, exactly one does each.
 */
public interface RunDeadlines {

    /** The waiting runs whose deadline is at or before {@code now}, earliest first, at most {@code limit}. */
    List<String> due(Instant now, int limit);

    /** The deadline of a waiting run; empty when it has none or does not wait. */
    Optional<RunDeadline> deadline(String runId);

    /**
     * Marks an overdue, not yet escalated card of a run that still waits on it as escalated and moves its deadline
     * by its span, recording the event in the same transaction.
     *
     * @return true when this call escalated it
     */
    boolean escalate(String runId, String digest, Instant now, GovernanceEvent event);

    /**
     * Moves the deadline of a waiting run by its span once, recording who and when and the event in the same
     * transaction.
     */
    ExtendResult extend(String runId, String by, Instant at, GovernanceEvent event);

    /** The answer to {@link #extend}. */
    sealed interface ExtendResult {
        /** The deadline moved. */
        record Extended(RunDeadline deadline) implements ExtendResult {
        }

        /** It was extended before, by this person at this time; nothing changed. */
        record AlreadyExtended(String by, Instant at) implements ExtendResult {
        }

        /** The run does not wait, or waits without a deadline; nothing changed. */
        record NoDeadline() implements ExtendResult {
        }
    }
}
