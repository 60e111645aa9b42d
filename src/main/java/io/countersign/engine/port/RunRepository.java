package io.countersign.engine.port;

import io.countersign.engine.decision.Decision;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.port.RunSummary;
import io.countersign.engine.run.WaitingRun;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Port: where runs live between their stretches, so that a decision is never lost and an approved call never
 * executes twice. Implementations are safe for concurrent use by several threads and several processes on
 * the same database.
 *
 * <p>Every write a driver makes for a running run (its journal, its outcome, a release) names the {@link RunLease}
 * it drives under, and holds only while the run's epoch is still that lease's: a driver whose write is refused
 * ({@link RunTakenOverException}) stops at once and executes nothing more. An approved call costs two durable
 * commits: the claim with its {@link DecisionStart}, and the outcome; a pause costs one, its outcome.
 */
public interface RunRepository {

    /**
     * Records a new run in status {@link RunStatus#RUNNING}, before its first stretch, driven by the caller. The
     * record need not be durable on its own: the stretch's outcome, which nobody can miss, makes it so.
     *
     * @return the lease the first stretch runs under
     */
    RunLease create(String runId, String agent, String initiator, String prompt, boolean unattended, Instant at);

    /**
     * Records a new run of an MCP host connected to this process's gateway, as {@link #create} does: this process
     * holds the host's connection for the run's whole life, so only it can carry out a decision on the run, and
     * once it stops the run waits for nobody ({@link #endWithoutGateway}).
     */
    RunLease createHosted(String runId, String agent, String initiator, String prompt, Instant at);

    /**
     * How the id of a gateway run's call begins when its host made it an MCP task: a card waiting on it is left
     * for the next gateway of the profile when its own stops ({@link StoredRun#waitsOnHostTask}).
     */
    String TASK_CALL = "task-";

    /** Why nothing can be done for a gateway run whose gateway process stopped: its card's notice and its end. */
    String GATEWAY_STOPPED = "the gateway holding this host's connection stopped; nothing can be carried out";

    /** The unfinished gateway runs whose gateway process stopped, by id: nothing can answer their hosts. */
    Set<String> withoutGateway();

    /**
     * Ends a gateway run whose gateway process stopped: failed with reason {@code gateway_stopped}, nothing of its
     * card or committed decision executed; a call that had started executing is flagged "outcome unknown" instead,
     * as {@link #reconcile} flags any run's.
     *
     * @return true when this ended or flagged the run; false when its gateway is live or the run moved on
     */
    boolean endWithoutGateway(String runId, Instant at);

    /**
     * Makes a gateway run whose gateway process stopped, and whose card still waits, this process's: it is no
     * longer without its gateway, and only this process carries out a decision on it from now on. For a gateway
     * that serves the same profile as the same person, and takes over the MCP tasks its predecessor left waiting.
     *
     * @return true when the run is this process's now; false when its gateway is live, or it moved on (ended, or
     *         decided)
     */
    boolean adoptHosted(String runId, Instant at);

    /**
     * Records where a stretch of the run ended, with the outcomes of its calls: the status, transcript, history and
     * counters; for a pause the paused state and its digest, and the run becomes claimable; for a failure its
     * reason and message. Clears the run's claim and its journal.
     *
     * @throws RunTakenOverException when the lease's driver no longer drives the run; nothing is recorded
     */
    void recordOutcome(RunLease lease, RunOutcome outcome, Instant at);

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
     * running without an owner, and the next process that reconciles ({@link #reconcile}) takes it over.
     */
    void handBack(RunLease lease, Instant at);

    /**
     * Takes over one run {@linkplain #handBack handed back}, to carry out its committed decision here: the run is
     * this process's under a new epoch, as after {@link #reconcile}. For the process that alone can carry it out,
     * such as the gateway that holds the host connection of a gateway run.
     *
     * @return the run under its new lease; empty when it is not handed back (any more)
     */
    Optional<StoredRun> takeOver(String runId, Instant at);

    /** The runs {@linkplain #handBack handed back} and not taken over since, oldest first. */
    List<StoredRun> handedBack();

    /**
     * The runs flagged "outcome unknown" ({@link RunStatus#OUTCOME_UNKNOWN}), for a person to
     * {@linkplain #settleUnknownOutcome settle}, oldest flag first; a run whose stored state does not decode is
     * listed as damaged and hides no other.
     */
    List<RunSummary> toSettle();

    /** The journal of the lease's driver: an intent before each call executes and its outcome after. */
    ExecutionJournal journal(RunLease lease);

    /**
     * The journal of a gateway run's driver ({@link #createHosted}), whose intents need not wait for the disk:
     * nothing ever resumes such a run, so no intent keeps a call from being sent twice; it only flags a call whose
     * gateway stopped mid-call, and a stopped process leaves it written (only a crash of the machine can lose it).
     */
    ExecutionJournal hostedJournal(RunLease lease);

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
