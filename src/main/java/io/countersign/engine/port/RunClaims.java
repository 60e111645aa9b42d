package io.countersign.engine.port;

import io.countersign.engine.decision.Decision;
import io.countersign.engine.state.PausedState;
import java.time.Instant;
import java.util.Optional;

/**
 * Port: a decision on a waiting run, claimed so that it is never lost and an approved call never executes twice,
 * and the run's way from the claim to whoever carries the decision out: begun here, released back to waiting,
 * handed back to another process or taken over by it. Safe for concurrent use by several threads and processes on
 * the same database.
 *
 * <p>Every write a driver makes for a running run (its journal, its outcome, a release) names the {@link RunLease}
 * it drives under, and holds only while the run's epoch is still that lease's: a driver whose write is refused
 * ({@link RunTakenOverException}) stops at once and executes nothing more. An approved call costs two durable
 * commits: the claim with its {@link DecisionStart}, and the outcome ({@link RunStretches#recordOutcome}).
 */
public interface RunClaims {
    /**
     * Atomically claims a waiting run for a decision and commits the decision: exactly one of several
     * concurrent claims (threads or processes) on the same pause wins. The claim holds only when the run still
     * waits with the status of the decision's kind and its current digest equals {@code decision.digest()}. The
     * claim commits the start in the same transaction, so the calls it names are journalled before they run.
     * The claimed run carries the caller's lease ({@link StoredRun#lease()}).
     */
    ClaimResult claim(Decision decision, DecisionStart start);

    /** Claims the decision with nothing written ahead of its calls. */
    default ClaimResult claim(Decision decision) {
        return claim(decision, DecisionStart.NONE);
    }

    /**
     * Commits the start of a decision claimed before (by a worker's queue, or before a restart) that the lease's
     * driver now carries out: the decision's event, unless that decision recorded it already, and the intents.
     *
     * @throws RunTakenOverException when the lease's driver no longer drives the run; nothing is recorded
     */
    void begin(RunLease lease, DecisionStart start);

    /**
     * Puts a claimed run back to waiting, with the given state (the same pause, or a new one whose previews
     * changed): the decision did not go through and nothing executed.
     *
     * @throws RunTakenOverException when the lease's driver no longer drives the run; nothing changes
     */
    void release(RunLease lease, PausedState state, Instant at);

    /**
     * Leaves a claimed run whose decision this process cannot carry out now (a server its calls need is not
     * connected here) to another process: the decision stays committed and nothing executed; the run stays
     * running without an owner, and the next process that reconciles ({@link UnfinishedRuns#reconcile}) takes it
     * over.
     */
    void handBack(RunLease lease, Instant at);

    /**
     * Takes over one run {@linkplain #handBack handed back}, to carry out its committed decision here: the run is
     * this process's under a new epoch, as after {@link UnfinishedRuns#reconcile}. For the process that alone can
     * carry it out, such as the gateway that holds the host connection of a gateway run.
     *
     * @return the run under its new lease; empty when it is not handed back (any more)
     */
    Optional<StoredRun> takeOver(String runId, Instant at);

    /**
     * The answer to a claim: {@link Claimed}, or the refusal {@link DecisionResult.Stale} (the run still waits, on
     * another card), {@link DecisionResult.AlreadyDecided} (another decision on this pause won) or
     * {@link DecisionResult.NotWaiting} (the run does not wait for this kind of decision, or does not exist).
     */
    sealed interface ClaimResult permits ClaimResult.Claimed, DecisionResult.Refusal {
        /** The decision is committed and the run is this caller's to resume. */
        record Claimed(StoredRun run) implements ClaimResult {
        }
    }
}
