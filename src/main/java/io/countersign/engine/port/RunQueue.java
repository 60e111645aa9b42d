package io.countersign.engine.port;

import io.countersign.engine.decision.Decision;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Port: the queue of runs that workers execute, so that several workers in several processes on one store never
 * take the same run, and a run whose worker stopped is recovered as its execution journal says.
 */
public interface RunQueue {

    /**
     * Records a new run in status {@link RunStatus#QUEUED}: nothing of it has run, and a worker that
     * {@linkplain #claimNext claims} it runs its first stretch.
     */
    void enqueue(String runId, String agent, String initiator, String prompt, boolean unattended, Instant at);

    /**
     * Claims a waiting run for a decision exactly as {@link RunClaims#claim} does, but leaves the committed
     * decision for a worker to carry out: the run goes to {@link RunStatus#QUEUED} with the decision, in the same
     * transaction, and {@link #claimNext} hands it to a worker.
     */
    RunClaims.ClaimResult claimForWorker(Decision decision);

    /**
     * Hands the next queued run to a worker, a committed decision before any new run and each kind oldest first
     * (a person waits on the decision's call): its status becomes {@link RunStatus#RUNNING} under the worker's
     * lease, and of several workers exactly one gets each run.
     *
     * @param workerId     who claims it; {@link #renewLease} keeps the lease alive
     * @param leaseExpires when the claim lapses unless renewed; a lapsed run is {@linkplain #recoverAbandoned
     *                     recovered}
     * @return the claimed run; or that none is queued; or that queued runs exist but another transaction held each
     *         of them at that moment
     */
    NextRun claimNext(String workerId, Instant leaseExpires, Instant at);

    /** What a worker's look at the queue found. */
    sealed interface NextRun permits NextRun.Taken, NextRun.Empty, NextRun.Held {
        /** Nothing is queued. */
        NextRun EMPTY = new Empty();
        /** Every queued run was held by another transaction. */
        NextRun HELD = new Held();

        /** The run taken, if this look took one. */
        default Optional<StoredRun> taken() {
            return this instanceof Taken t ? Optional.of(t.run()) : Optional.empty();
        }

        /**
         * The worker took this run: a first stretch when {@link StoredRun#pausedState()} is {@code null}, else a
         * pause whose committed decision ({@link StoredRun#lastDecision()}) is to be carried out.
         */
        record Taken(StoredRun run) implements NextRun {
            public Taken {
                Objects.requireNonNull(run, "run");
            }
        }

        /** No run is queued. */
        record Empty() implements NextRun {
        }

        /**
         * Runs are queued, but another transaction held the lock on each of them, so the claim passed over them
         * (PostgreSQL's {@code SKIP LOCKED}): another worker's claim, or a deciding client's claim that lost its
         * race for the run, which holds it until its rollback arrives, a round trip after the change that woke the
         * worker. A look again shortly takes it then.
         */
        record Held() implements NextRun {
        }
    }

    /**
     * Extends a worker's lease on a run it executes.
     *
     * @return false when the worker no longer holds the run: its lease lapsed and the run was recovered
     */
    boolean renewLease(String runId, String workerId, Instant leaseExpires);

    /**
     * Recovers the runs whose worker stopped: those still running with a lease that ran out before {@code at}. A
     * run with calls in its execution journal is flagged with the calls whose outcome is unknown and left for a
     * person; a run with an empty journal executed nothing of its stretch, so it goes back to the queue, to run its
     * first stretch or carry out its committed decision again. Runs that another worker is recovering at the same
     * moment are skipped.
     *
     * @return the recovered runs as they are now
     */
    List<StoredRun> recoverAbandoned(Instant at);
}
