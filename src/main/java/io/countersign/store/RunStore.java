package io.countersign.store;

import io.countersign.engine.agent.RunDeadline;
import io.countersign.engine.call.ToolInvocationObservation;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.declarative.RecordedCall;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.port.DecisionStart;
import io.countersign.engine.port.ExecutionJournal;
import io.countersign.engine.port.RecentToolCalls;
import io.countersign.engine.port.RecordedCalls;
import io.countersign.engine.port.RunDeadlines;
import io.countersign.engine.port.RunLease;
import io.countersign.engine.port.RunQueue;
import io.countersign.engine.port.RunRepository;
import io.countersign.engine.port.RunSummary;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.port.WaitingRun;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.state.RunStatus;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Runs, their decisions and the execution journal, on SQLite or PostgreSQL: the engine's ports over the parts
 * that do each job, all reading rows through one {@link RunRows}. {@link RunRecords} keeps the runs,
 * {@link DecisionClaims} the atomic claims, {@link WorkerQueue} the queue for workers, {@link RunRecovery} the
 * take-over of runs whose process stopped, and {@link CallJournal} the execution journal.
 *
 * <p>A running run has an owner, the {@link StoreSession} of the process that drives it, and an epoch that grows at
 * every take-over; its journal intents, its outcomes and its next state are written only under the owner's
 * current {@link RunLease}, checked in the writing statement, so neither a process taken for stopped nor a thread
 * that lost the run to another can act on it.
 */
public final class RunStore implements RunRepository, RunQueue, RecentToolCalls, RecordedCalls, RunDeadlines {
    private final RunRecords runs;
    private final DecisionClaims claims;
    private final WorkerQueue queue;
    private final RunRecovery recovery;
    private final Database database;
    private final StoreSession session;
    private final HandedBackRuns handedBack;
    private final DeadlineRows deadlines;
    private final StoppedGatewayRuns stoppedGateways;

    RunStore(Database database, StoreSession session) {
        RunRows rows = new RunRows();
        this.runs = new RunRecords(database, session, rows, new ConcurrentHashMap<>());
        this.claims = new DecisionClaims(database, session, rows);
        this.queue = new WorkerQueue(database, session, rows, runs);
        this.recovery = new RunRecovery(database, session, runs);
        this.database = database;
        this.session = session;
        this.handedBack = new HandedBackRuns(database, session, rows);
        this.deadlines = new DeadlineRows(database);
        this.stoppedGateways = new StoppedGatewayRuns(database, session);
    }

    @Override
    public List<String> due(Instant now, int limit) {
        return deadlines.due(now, limit);
    }

    @Override
    public Optional<RunDeadline> deadline(String runId) {
        return deadlines.deadline(runId);
    }

    @Override
    public boolean escalate(String runId, String digest, Instant now, GovernanceEvent event) {
        return deadlines.escalate(runId, digest, now, event);
    }

    @Override
    public ExtendResult extend(String runId, String by, Instant at, GovernanceEvent event) {
        return deadlines.extend(runId, by, at, event);
    }

    /**
     * {@inheritDoc}
     *
     * <p>On SQLite committed under {@code synchronous=NORMAL}, on PostgreSQL with {@code synchronous_commit = off}:
     * it survives a crash of this process, and the stretch's outcome makes it durable.
     */
    @Override
    public RunLease create(String runId, String agent, String initiator, String prompt, boolean unattended,
                           Instant at) {
        return runs.insert(runId, agent, initiator, prompt, unattended, RunStatus.RUNNING, false, at);
    }

    /** {@inheritDoc} Committed as {@link #create} is. */
    @Override
    public RunLease createHosted(String runId, String agent, String initiator, String prompt, Instant at) {
        return runs.insert(runId, agent, initiator, prompt, false, RunStatus.RUNNING, true, at);
    }

    @Override
    public void enqueue(String runId, String agent, String initiator, String prompt, boolean unattended, Instant at) {
        runs.insert(runId, agent, initiator, prompt, unattended, RunStatus.QUEUED, false, at);
    }

    @Override
    public void recordOutcome(RunLease lease, RunOutcome outcome, Instant at) {
        runs.recordOutcome(lease, outcome, at);
    }

    @Override
    public Optional<StoredRun> find(String runId) {
        return runs.find(runId);
    }

    /**
     * The decision a person took on a run nearest to a time: the record behind an {@code approval_decided} event,
     * which holds the verdicts and their reasons (events hold codes only).
     */
    public Optional<Decision> decisionNear(String runId, String decidedBy, Instant at) {
        return database.read("read the decision on run " + runId, connection -> {
            try (NamedStatement select = NamedStatement.prepare(connection, "SELECT "
                    + RunRows.decisionColumns("d", "") + " FROM decisions d WHERE d.run_id = :runId"
                    + " AND d.decided_by = :decidedBy ORDER BY ABS(d.decided_at - :at), d.id DESC LIMIT 1");
                 ResultSet found = select.set("runId", runId).set("decidedBy", decidedBy)
                         .set("at", Nanos.of(at)).executeQuery()) {
                return found.next() ? Optional.of(RunRows.decision(found, "")) : Optional.empty();
            }
        });
    }

    @Override
    public List<RunSummary> recent(int limit) {
        return runs.recent(limit);
    }

    @Override
    public List<StoredRun> waiting() {
        return runs.waiting();
    }

    /**
     * {@inheritDoc}
     *
     * <p>Reads the summary written beside each paused state (migration V10); a run paused before it is summarized
     * from its paused state, the only one read.
     */
    @Override
    public List<WaitingRun> waitingSummaries() {
        return runs.waitingSummaries();
    }

    @Override
    public List<ToolInvocationObservation> recentCalls(int limit) {
        return runs.recentCalls(limit);
    }

    @Override
    public List<RecordedCall> since(Instant since, int limit) {
        return runs.recordedCalls(since, limit);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Refusals, in this order: no such run ({@code NotWaiting(null)}); a decision was already taken on this
     * very card, whatever the run did since ({@code AlreadyDecided}); the run still waits for this kind of
     * decision but shows another card ({@code Stale}); someone claimed the run's current pause and it runs on
     * their decision ({@code AlreadyDecided}); otherwise {@code NotWaiting} with the run's status. A refused
     * claim changes nothing and wakes no console.
     */
    @Override
    public ClaimResult claim(Decision decision, DecisionStart start) {
        return claims.claim(decision, RunStatus.RUNNING, start);
    }

    @Override
    public ClaimResult claimForWorker(Decision decision) {
        return claims.claim(decision, RunStatus.QUEUED, DecisionStart.NONE);
    }

    @Override
    public void begin(RunLease lease, DecisionStart start) {
        claims.begin(lease, start);
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalStateException when the run carries out no claimed decision; nothing changes
     */
    @Override
    public void release(RunLease lease, PausedState state, Instant at) {
        claims.release(lease, state, at);
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalStateException when this process does not drive a claimed decision of the run; nothing
     *                               changes
     */
    @Override
    public void handBack(RunLease lease, Instant at) {
        handedBack.handBack(lease, at);
    }

    @Override
    public Optional<StoredRun> takeOver(String runId, Instant at) {
        return handedBack.takeOver(runId, at) ? find(runId) : Optional.empty();
    }

    @Override
    public List<StoredRun> handedBack() {
        return handedBack.list();
    }

    @Override
    public List<RunSummary> toSettle() {
        return runs.toSettle();
    }

    /**
     * {@inheritDoc}
     *
     * <p>Each intent is its own durable commit (the one written with a claim is the claim's); the outcomes are
     * committed without waiting for the disk before the model is asked again, and with the stretch's outcome.
     * The journal is the driver's own: use one per stretch, from one thread.
     */
    @Override
    public ExecutionJournal journal(RunLease lease) {
        return new CallJournal(database, session, lease, true);
    }

    @Override
    public ExecutionJournal hostedJournal(RunLease lease) {
        return new CallJournal(database, session, lease, false);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Only runs whose owner stopped are looked at: another live process may be driving a running run right
     * now. Each orphan is taken over in one transaction that checks it still has the owner it was found with, so
     * of several processes starting at once exactly one carries it on. A run whose stretch had no decision (its
     * first) has no state to resume from and fails as {@code interrupted}. A run with calls in its journal is
     * flagged: those with an intent and no outcome, or, when every call finished, all of them (their results
     * were lost with the process, and running them again would repeat them). A gateway run is never taken over:
     * one whose gateway stopped ends as {@link #endWithoutGateway} ends it.
     */
    @Override
    public List<StoredRun> reconcile(Instant at) {
        return recovery.reconcile(at);
    }

    @Override
    public Set<String> withoutGateway() {
        return stoppedGateways.list().stream().map(StoppedGatewayRuns.Stranded::runId)
                .collect(Collectors.toUnmodifiableSet());
    }

    @Override
    public boolean endWithoutGateway(String runId, Instant at) {
        return stoppedGateways.end(runId, at);
    }

    @Override
    public boolean adoptHosted(String runId, Instant at) {
        return stoppedGateways.adopt(runId, at);
    }

    @Override
    public StoredRun settleUnknownOutcome(String runId, boolean retry, String settledBy, Instant at) {
        return recovery.settleUnknownOutcome(runId, retry, settledBy, at);
    }

    /**
     * {@inheritDoc}
     *
     * <p>One statement claims it: on PostgreSQL the row is chosen {@code FOR UPDATE SKIP LOCKED}, on SQLite the
     * write lock is held.
     */
    @Override
    public NextRun claimNext(String workerId, Instant leaseExpires, Instant at) {
        return queue.claimNext(workerId, leaseExpires, at);
    }

    @Override
    public boolean renewLease(String runId, String workerId, Instant leaseExpires) {
        return queue.renewLease(runId, workerId, leaseExpires);
    }

    /** {@inheritDoc} As {@link #reconcile} does for one process. */
    @Override
    public List<StoredRun> recoverAbandoned(Instant at) {
        return queue.recoverAbandoned(at);
    }
}
