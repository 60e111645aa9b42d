package io.countersign.engine.port;

import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.state.RunStatus;
import java.time.Instant;

/**
 * Port: where the driver of a run keeps it between its stretches, the loop's paused-state store: the run recorded
 * before its first stretch, an intent journalled before each call and its outcome after, and the outcome a stretch
 * ends with (a pause with its paused state, or the end). Safe for concurrent use by several threads and processes.
 *
 * <p>Every write a driver makes for a running run (its journal, its outcome, a release) names the {@link RunLease}
 * it drives under, and holds only while the run's epoch is still that lease's: a driver whose write is refused
 * ({@link RunTakenOverException}) stops at once and executes nothing more. A pause costs one durable commit, its
 * outcome.
 */
public interface RunStretches {
    /**
     * Records a new run in status {@link RunStatus#RUNNING}, before its first stretch, driven by the caller. The
     * record need not be durable on its own: the stretch's outcome, which nobody can miss, makes it so.
     *
     * @return the lease the first stretch runs under
     */
    RunLease create(String runId, String agent, String initiator, String prompt, boolean unattended, Instant at);

    /**
     * Records where a stretch of the run ended, with the outcomes of its calls: the status, transcript, history and
     * counters; for a pause the paused state and its digest, and the run becomes claimable; for a failure its
     * reason and message. Clears the run's claim and its journal.
     *
     * @throws RunTakenOverException when the lease's driver no longer drives the run; nothing is recorded
     */
    void recordOutcome(RunLease lease, RunOutcome outcome, Instant at);

    /** The journal of the lease's driver: an intent before each call executes and its outcome after. */
    ExecutionJournal journal(RunLease lease);
}
