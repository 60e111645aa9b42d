package io.countersign.engine.port;

import io.countersign.engine.state.RunStatus;
import java.time.Instant;
import java.util.List;

/**
 * Port: the runs a stopped process left unfinished: found again after a restart, resumed from a committed decision
 * none of whose calls started, or flagged "outcome unknown" and settled by a person.
 */
public interface UnfinishedRuns {
    /**
     * After a restart: every run left {@link RunStatus#RUNNING} by a process that stopped. Runs whose claimed
     * decision had not started any call are returned, with that decision as {@link StoredRun#lastDecision()},
     * to be resumed from it; runs with a call whose outcome is unknown are flagged
     * ({@link StoredRun#unknownOutcomeCalls()}) and left for a person.
     */
    List<StoredRun> reconcile(Instant at);

    /**
     * A person settles a run flagged "outcome unknown". With {@code retry} the run waits again on the pause it
     * was decided from, so the person can look at the files and decide again (approving re-executes the calls);
     * without, the run ends as failed with reason {@code outcome_unknown}. Records who settled it. Without
     * {@code retry} it also ends a waiting run whose paused state is damaged, with reason {@code damaged_state}.
     * A gateway run whose gateway stopped is not put back to waiting, as nothing could carry it out: {@code retry}
     * ends it as failed with reason {@code gateway_stopped}, as a decision on its card would.
     *
     * @throws IllegalStateException when the run is not flagged (nor, without retry, waits on a damaged state)
     */
    StoredRun settleUnknownOutcome(String runId, boolean retry, String settledBy, Instant at);
}
