package io.countersign.service;

import io.countersign.engine.call.ToolInvocationObservation;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.port.DecisionStart;
import io.countersign.engine.port.ExecutionJournal;
import io.countersign.engine.port.RunLease;
import io.countersign.engine.port.RunRepository;
import io.countersign.engine.port.RunSummary;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.RunOutcome;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The store's runs, halting one chosen run at one chosen step of carrying out its decision: the process prints
 * {@code halted <step> <run>} and stops there for good, so that a test kills it exactly at that point.
 */
final class HaltingRuns implements RunRepository {
    /** Where a decision's way through the store can be halted, in the order it passes them. */
    enum Step {
        /** Checked, nothing committed. */
        BEFORE_CLAIM,
        /** The claim committed, with the decision's event and the intent; nothing executed. */
        CLAIMED,
        /** The tool executed; its outcome not recorded. */
        EXECUTED,
        /** The outcome committed (deferred), the model not asked yet. */
        OUTCOMES,
        /** The model answered; the next state not committed. */
        BEFORE_NEXT_STATE,
        /** The next state committed; the decision not reported done yet. */
        NEXT_STATE
    }

    private final RunRepository runs;
    /** What halting does: a child process stops for good; a test in one process throws instead. */
    private final Runnable halt;
    private volatile Step step;
    private volatile String target;

    HaltingRuns(RunRepository runs) {
        this(runs, HaltingRuns::sleepForever);
    }

    HaltingRuns(RunRepository runs, Runnable halt) {
        this.runs = runs;
        this.halt = halt;
    }

    /** From now on, the decision on this run halts at the step. */
    void arm(String runId, Step at) {
        step = at;
        target = runId;
    }

    /** Halts here when the armed run reached the step. */
    void at(Step reached, String runId) {
        if (reached != step || target == null || runId != null && !runId.equals(target)) {
            return;
        }
        System.out.println("halted " + step + " " + target);
        System.out.flush();
        halt.run();
    }

    private static void sleepForever() {
        try {
            Thread.sleep(Long.MAX_VALUE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("halted and interrupted", e);
        }
    }

    @Override
    public RunLease create(String runId, String agent, String initiator, String prompt, boolean unattended,
                           Instant at) {
        return runs.create(runId, agent, initiator, prompt, unattended, at);
    }

    @Override
    public RunLease createHosted(String runId, String agent, String initiator, String prompt, Instant at) {
        return runs.createHosted(runId, agent, initiator, prompt, at);
    }

    @Override
    public Set<String> withoutGateway() {
        return runs.withoutGateway();
    }

    @Override
    public boolean endWithoutGateway(String runId, Instant at) {
        return runs.endWithoutGateway(runId, at);
    }

    @Override
    public boolean adoptHosted(String runId, Instant at) {
        return runs.adoptHosted(runId, at);
    }

    @Override
    public void recordOutcome(RunLease lease, RunOutcome outcome, Instant at) {
        at(Step.BEFORE_NEXT_STATE, lease.runId());
        runs.recordOutcome(lease, outcome, at);
        at(Step.NEXT_STATE, lease.runId());
    }

    @Override
    public Optional<StoredRun> find(String runId) {
        return runs.find(runId);
    }

    @Override
    public List<RunSummary> recent(int limit) {
        return runs.recent(limit);
    }

    @Override
    public List<RunSummary> toSettle() {
        return runs.toSettle();
    }

    @Override
    public List<StoredRun> waiting() {
        return runs.waiting();
    }

    @Override
    public ClaimResult claim(Decision decision, DecisionStart start) {
        at(Step.BEFORE_CLAIM, decision.runId());
        ClaimResult claim = runs.claim(decision, start);
        at(Step.CLAIMED, decision.runId());
        return claim;
    }

    @Override
    public void begin(RunLease lease, DecisionStart start) {
        runs.begin(lease, start);
    }

    @Override
    public void release(RunLease lease, PausedState state, Instant at) {
        runs.release(lease, state, at);
    }

    @Override
    public void handBack(RunLease lease, Instant at) {
        runs.handBack(lease, at);
    }

    @Override
    public Optional<StoredRun> takeOver(String runId, Instant at) {
        return runs.takeOver(runId, at);
    }

    @Override
    public List<StoredRun> handedBack() {
        return runs.handedBack();
    }

    @Override
    public ExecutionJournal journal(RunLease lease) {
        ExecutionJournal journal = runs.journal(lease);
        return new ExecutionJournal() {
            @Override
            public void beforeExecute(String runId, String callId, String toolName) {
                journal.beforeExecute(runId, callId, toolName);
            }

            @Override
            public void afterExecute(String runId, String callId, ToolInvocationObservation.Outcome outcome) {
                journal.afterExecute(runId, callId, outcome);
            }

            @Override
            public void beforeModelCall(String runId) {
                journal.beforeModelCall(runId);
                at(Step.OUTCOMES, runId);
            }
        };
    }

    @Override
    public ExecutionJournal hostedJournal(RunLease lease) {
        return runs.hostedJournal(lease);
    }

    @Override
    public List<StoredRun> reconcile(Instant at) {
        return runs.reconcile(at);
    }

    @Override
    public StoredRun settleUnknownOutcome(String runId, boolean retry, String settledBy, Instant at) {
        return runs.settleUnknownOutcome(runId, retry, settledBy, at);
    }
}
