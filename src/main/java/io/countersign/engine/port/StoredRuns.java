package io.countersign.engine.port;

import io.countersign.engine.port.WaitingRun;
import io.countersign.engine.state.RunStatus;
import java.util.List;
import java.util.Optional;

/**
 * Port: the stored runs as the use cases read them: one run, the recent ones, those waiting for a person, those
 * handed back and those to settle. Reads only.
 */
public interface StoredRuns {
    Optional<StoredRun> find(String runId);

    /**
     * The most recently updated runs, newest first, whatever their status; a run whose stored state does not
     * decode is listed as damaged and hides no other.
     */
    List<RunSummary> recent(int limit);

    /** Every run that waits for a person (approval or input), oldest wait first. */
    List<StoredRun> waiting();

    /**
     * Every waiting run as an inbox lists it, oldest wait first: without its paused state, which a store may keep
     * summarized beside it. By default summarized from {@link #waiting()}.
     */
    default List<WaitingRun> waitingSummaries() {
        return waiting().stream().map(WaitingRun::of).toList();
    }

    /** The runs {@linkplain RunClaims#handBack handed back} and not taken over since, oldest first. */
    List<StoredRun> handedBack();

    /**
     * The runs flagged "outcome unknown" ({@link RunStatus#OUTCOME_UNKNOWN}), for a person to
     * {@linkplain UnfinishedRuns#settleUnknownOutcome settle}, oldest flag first; a run whose stored state does not
     * decode is listed as damaged and hides no other.
     */
    List<RunSummary> toSettle();
}
