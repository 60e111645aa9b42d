package io.countersign.service;

import io.countersign.engine.Actor;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.port.ApprovalQuorums;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.RunClaims;
import io.countersign.engine.port.RunLease;
import io.countersign.engine.port.RunRepository;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.run.PreparedResume;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.state.RunStateException;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.run.ToolLoop;
import io.countersign.engine.tool.InvalidInputException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * Carrying out committed decisions under a run's lease: the one this process has just claimed, one a worker's
 * queue gave it, and those a stopped process left behind. A decision whose calls' servers do not connect here is
 * handed back, never turned into refusals.
 */
final class ClaimedDecisions {
    private final RunRepository runs;
    private final AgentDirectory agents;
    private final ToolLoop loop;
    private final DecisionServers servers;
    private final Clock clock;
    private final boolean drivesHostRuns;
    private final ApprovalQuorums approvals;

    ClaimedDecisions(RunRepository runs, AgentDirectory agents, ToolLoop loop, DecisionServers servers,
                     ApprovalQuorums approvals, Clock clock) {
        this(runs, agents, loop, servers, approvals, clock, false);
    }

    /** @param drivesHostRuns true for a gateway's own, which carries out the decisions of its host's runs */
    ClaimedDecisions(RunRepository runs, AgentDirectory agents, ToolLoop loop, DecisionServers servers,
                     ApprovalQuorums approvals, Clock clock, boolean drivesHostRuns) {
        this.drivesHostRuns = drivesHostRuns;
        this.approvals = approvals;
        this.runs = runs;
        this.agents = agents;
        this.loop = loop;
        this.servers = servers;
        this.clock = clock;
    }

    /**
     * Whether a gateway drives the run: then only the gateway holding its host's connection carries out a
     * decision on it, and every other process hands it back.
     */
    static boolean hostDriven(StoredRun run) {
        return run.pausedState() != null && run.pausedState().model().hostDriven();
    }

    /**
     * Prepare the resume: the decision applied to the pause, nothing written yet; the approved calls run as the
     * run owner.
     */
    PreparedResume prepare(PausedState state, AgentConfiguration configuration, Decision decision) {
        return decision instanceof Decision.Approval approval ? loop.prepareApproval(state, configuration, approval)
                : loop.prepareInput(state, configuration, (Decision.Input) decision);
    }

    /**
     * Carries out the committed decision of a run claimed before (by a worker's queue, or before a restart): its
     * start is committed now, under the run's lease; {@code decider} is who decided.
     */
    private DecisionResult resumeClaimed(StoredRun run, AgentConfiguration configuration, Decision decision) {
        if (hostDriven(run) && !drivesHostRuns) {
            return handBackToGateway(run.lease(), decision);
        }
        return carryOutClaimed(run, configuration, decision);
    }

    /**
     * Last stage, hand back to the gateway: a gateway run's decision is carried out by the gateway that holds its
     * host's connection, never here; it is left committed for that gateway to take over
     * ({@link RunClaims#takeOver}).
     */
    DecisionResult handBackToGateway(RunLease lease, Decision decision) {
        runs.handBack(lease, clock.instant());
        return done(lease.runId(), RunStatus.RUNNING, decision, List.of());
    }

    /** As {@link #resumeClaimed}, carried out in this process whoever drives the run. */
    DecisionResult carryOutClaimed(StoredRun run, AgentConfiguration configuration, Decision decision) {
        List<String> missing = servers.missing(run.runId(), servers.needed(run.pausedState(), decision));
        if (!missing.isEmpty()) {
            // Without its tools an approved call would become a refusal: the decision waits for a process that
            // can connect them, and nothing runs here.
            runs.handBack(run.lease(), clock.instant());
            return waitingForServers(run.runId(), decision, missing);
        }
        RunLease lease = run.lease();
        PreparedResume prepared;
        try {
            prepared = prepare(run.pausedState(), configuration, decision);
        } catch (InvalidInputException e) {
            runs.release(lease, run.pausedState(), clock.instant());
            return new DecisionResult.InvalidInput(run.runId(), e.errors());
        } catch (RunStateException e) {
            runs.release(lease, run.pausedState(), clock.instant());
            throw e;
        }
        if (prepared instanceof PreparedResume.PreviewsChanged changed) {
            return putBack(lease, changed);
        }
        PreparedResume.Ready resume = (PreparedResume.Ready) prepared;
        runs.begin(lease, resume.start());
        return carryOutHere(run, decision, resume);
    }

    /** A preview changed since the card was shown: nothing ran, the person must look again. */
    DecisionResult putBack(RunLease lease, PreparedResume.PreviewsChanged changed) {
        runs.release(lease, changed.outcome().state(), clock.instant());
        return changed.refusal();
    }

    /**
     * Last stage, carry out here: runs the decided calls and what follows under the claimed run's lease, and
     * records where the run stands; a gateway run is handed back instead, unless this is its gateway. A write the
     * lease no longer allows stops it on the spot ({@link io.countersign.engine.port.RunTakenOverException}).
     */
    DecisionResult carryOutHere(StoredRun claimed, Decision decision, PreparedResume.Ready resume) {
        if (hostDriven(claimed) && !drivesHostRuns) {
            return handBackToGateway(claimed.lease(), decision);
        }
        RunLease lease = claimed.lease();
        recordWait(claimed, decision);
        RunOutcome outcome = resume.carryOut(runs.journal(lease));
        runs.recordOutcome(lease, outcome, clock.instant());
        return done(claimed.runId(), outcome.status(), decision,
                ResumedCalls.failed(claimed.pausedState(), decision, outcome));
    }

    /** Tells the telemetry of the wait for a person the claimed decision ended, when it measures waits. */
    void recordWait(StoredRun claimed, Decision decision) {
        if (claimed.waitingSince() != null && loop.telemetry().measuresWaits()) {
            loop.telemetry().waited(PersonWaits.of(claimed, decision,
                    approvals.approvals(claimed.runId(), decision.digest()).size()));
        }
    }

    /**
     * A committed decision, with its counts of approved and denied calls (none for input) and the calls it let run
     * that did not go through.
     */
    static DecisionResult done(String runId, RunStatus status, Decision decision,
                               List<DecisionResult.FailedCall> failed) {
        return new DecisionResult.Done(runId, status, decision.approved(), decision.denied(), failed);
    }

    /** A committed decision that waits for a process that can connect the servers its calls need. */
    private static DecisionResult waitingForServers(String runId, Decision decision, List<String> servers) {
        return new DecisionResult.Done(runId, RunStatus.RUNNING, decision.approved(), decision.denied(), List.of(),
                servers);
    }

    /**
     * Ends a run a worker claimed whose owner may no longer run agents (their roles were taken, or they were
     * removed): nothing more is done in their name, and the run fails with reason {@code owner_not_permitted}.
     */
    StartedRun refuseForOwner(StoredRun claimed, Actor owner) {
        PausedState state = claimed.pausedState();
        runs.recordOutcome(claimed.lease(), new RunOutcome.Failed(claimed.runId(), "owner_not_permitted",
                Permissions.refusal(owner, Operation.START_RUN) + " now, so nothing more runs in their name;"
                        + " nothing was executed",
                state == null ? claimed.transcript() : state.transcript(),
                state == null ? claimed.history() : state.history(), claimed.counters()), clock.instant());
        return new StartedRun(claimed.runId(), RunStatus.FAILED);
    }

    /**
     * Carries out the committed decision of a run that a worker claimed ({@link StoredRun#lastDecision()}), as the
     * decider's own process would have: the approved calls run under the run owner's identity; the decider's roles
     * were checked when the decision was taken, and carrying it out needs only their name, which it holds.
     */
    DecisionResult resumeDecided(StoredRun claimed) {
        return resumeClaimed(claimed, agents.get(claimed.agent()), claimed.lastDecision());
    }

    /** Recovery: see {@link DefaultRunService#resumeInterrupted()}. */
    List<Resumption> resumeInterrupted() {
        List<Resumption> resumptions = new ArrayList<>();
        for (StoredRun run : runs.reconcile(clock.instant())) {
            resumptions.add(resumeInterrupted(run));
        }
        return resumptions;
    }

    /** Carries out a reconciled run's committed decision, as the decider's own request would have. */
    private Resumption resumeInterrupted(StoredRun run) {
        Decision decision = run.lastDecision();
        AgentConfiguration configuration;
        try {
            configuration = agents.get(run.agent());
        } catch (IllegalArgumentException e) {
            runs.release(run.lease(), run.pausedState(), clock.instant());
            return new Resumption.NotCarriedOut(run.runId(), decision.decidedBy(), e.getMessage(), true);
        }
        try {
            DecisionResult result = resumeClaimed(run, configuration, decision);
            if (result instanceof DecisionResult.Done done && !done.waitingForServers().isEmpty()) {
                return new Resumption.WaitsForServers(run.runId(), decision.decidedBy(), done.waitingForServers());
            }
            return new Resumption.CarriedOut(run.runId(), decision.decidedBy(), result);
        } catch (RunStateException e) {
            return new Resumption.NotCarriedOut(run.runId(), decision.decidedBy(), e.getMessage(), true);
        } catch (RuntimeException e) {
            return new Resumption.NotCarriedOut(run.runId(), decision.decidedBy(), e.getMessage(), false);
        }
    }
}
