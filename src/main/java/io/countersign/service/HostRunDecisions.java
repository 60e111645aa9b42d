package io.countersign.service;

import io.countersign.engine.Actor;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.port.ActorDirectory;
import io.countersign.engine.port.ApprovalQuorums;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.DecisionStart;
import io.countersign.engine.port.RunClaims;
import io.countersign.engine.port.RunRepository;
import io.countersign.engine.port.ServerRecords;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.run.PreparedResume;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.PendingCall;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.run.ToolLoop;
import io.countersign.engine.tool.ToolRegistry;
import java.time.Clock;
import java.util.Optional;

/**
 * The decisions on a gateway's runs, which only the gateway holding the host's connection carries out: any
 * console or command line commits a decision and leaves the run ({@link RunClaims#handBack}); the gateway takes
 * it over here and runs the decided call with its own loop, whose model is the host.
 */
public final class HostRunDecisions {
    /** Who ends a run whose host went away while its card waited. */
    public static final String GATEWAY_ACTOR = "gateway";
    /** What the card's decision says when its host cancelled the call: nothing ran, and nothing will. */
    public static final String HOST_CANCELLED = "the host cancelled this call; nothing was executed";
    /** What the card's decision says when its host went away: nothing ran, and nothing will. */
    public static final String HOST_GONE = "the MCP host disconnected: nothing was executed, and no decision can run"
            + " for a caller who is gone";

    private final RunRepository runs;
    private final AgentDirectory agents;
    private final ActorDirectory users;
    private final ClaimedDecisions decisions;
    private final Clock clock;

    public HostRunDecisions(RunRepository runs, AgentDirectory agents, ActorDirectory users,
                            ApprovalQuorums approvals, ToolLoop loop, ToolRegistry registry, ServerRecords servers,
                            ServerConnections connections, Clock clock) {
        this.runs = runs;
        this.agents = agents;
        this.users = users;
        this.clock = clock;
        this.decisions = new ClaimedDecisions(runs, agents, loop, new DecisionServers(registry, servers, connections),
                approvals, clock, true);
    }

    /**
     * The gateway profile a person serves MCP hosts with, and the person with the roles they hold now: they must
     * be allowed to run agents, as every call then runs in their name.
     *
     * @throws NotPermittedException    when they may not run agents
     * @throws IllegalArgumentException when no agent configuration has the name, or it is not a gateway profile
     */
    public Profiled profile(Actor actor, String name) {
        Actor now = new Permissions(users).requireNow(actor, Operation.START_RUN);
        AgentConfiguration profile = agents.get(name);
        if (!profile.model().hostDriven()) {
            throw new IllegalArgumentException("\"" + name + "\" is an agent with the model \""
                    + profile.model().name() + "\", not a gateway profile; add one with `countersign gateway profiles"
                    + " add`");
        }
        return new Profiled(now, profile);
    }

    /** A gateway profile and the person it serves hosts as. */
    public record Profiled(Actor actor, AgentConfiguration profile) {
    }

    /**
     * Takes over the run if a decision on it was committed and left for this gateway, and carries it out here: the
     * decided calls run (or are refused) and the run goes on until the host's next call needs a person, or ends.
     *
     * @return the result, or empty when no decision waits to be carried out
     */
    public Optional<DecisionResult> carryOutHandedBack(String runId) {
        Optional<StoredRun> taken = runs.takeOver(runId, clock.instant());
        if (taken.isEmpty()) {
            return Optional.empty();
        }
        StoredRun run = taken.get();
        Decision decision = run.lastDecision();
        // The decider's roles were checked when the decision was committed; carrying it out needs their name.
        return Optional.of(decisions.carryOutClaimed(run, agents.get(run.agent()), decision));
    }

    /**
     * Ends a gateway run whose host disconnected, nothing of its waiting calls executed: a waiting card is claimed
     * away, and a decision committed but not yet carried out is refused. A later decision finds the run failed
     * with reason {@code host_disconnected}.
     *
     * @return true when this ended the run; false when it had moved on (another decision won, or it ended)
     */
    public boolean endForGoneHost(String runId, String message) {
        Optional<StoredRun> found = runs.find(runId);
        if (found.isEmpty()) {
            return false;
        }
        StoredRun run = found.get();
        StoredRun held;
        if (run.status().waiting() && run.pausedState() != null) {
            PausedState state = run.pausedState();
            Decision ended = state.denyAll(GATEWAY_ACTOR, clock.instant(), message).withSummary(HOST_GONE);
            RunClaims.ClaimResult claim = runs.claim(ended);
            if (!(claim instanceof RunClaims.ClaimResult.Claimed claimed)) {
                return endForGoneHost(runId, message, claim);
            }
            held = claimed.run();
        } else {
            Optional<StoredRun> taken = runs.takeOver(runId, clock.instant());
            if (taken.isEmpty()) {
                return false;
            }
            held = taken.get();
        }
        PausedState state = held.pausedState();
        runs.recordOutcome(held.lease(), new RunOutcome.Failed(runId, "host_disconnected", message,
                state == null ? held.transcript() : state.transcript(),
                state == null ? held.history() : state.history(), held.counters()), clock.instant());
        return true;
    }

    /**
     * Withdraws the card of a gateway run whose host cancelled the call {@code callId} it waits on: the card is
     * claimed as a person's decision would be, every waiting call declined by
     * {@link DecisionResult.AlreadyDecided#HOST_ACTOR}, recorded as a
     * {@code call_withdrawn} event, and handed back for the gateway's driver to carry the run on from. Of a
     * person's decision and the cancellation exactly one wins; a later decision is refused with who ended the card.
     *
     * @return true when this withdrew the card; false when the run did not wait on that call or a decision won
     */
    public boolean withdrawCancelled(String runId, String callId) {
        Optional<StoredRun> found = runs.find(runId);
        if (found.isEmpty()) {
            return false;
        }
        StoredRun run = found.get();
        PausedState state = run.pausedState();
        Optional<PendingCall> withdrawnCall = run.status() != RunStatus.WAITING_FOR_APPROVAL || state == null
                ? Optional.empty()
                : state.awaitingApproval().stream().filter(pending -> pending.call().id().equals(callId)).findFirst();
        if (withdrawnCall.isEmpty()) {
            return false;
        }
        String host = DecisionResult.AlreadyDecided.HOST_ACTOR;
        Decision decision = state.denyAll(host, clock.instant(), HOST_CANCELLED).withSummary(HOST_CANCELLED);
        // A denial of every call needs no preview checked again, so it is always ready.
        PreparedResume.Ready resume = (PreparedResume.Ready) decisions.prepare(state, agents.get(run.agent()),
                decision);
        GovernanceEvent decided = resume.start().decisionEvent();
        GovernanceEvent withdrawn = new GovernanceEvent(decided.id(), decision.decidedAt(), EventType.CALL_WITHDRAWN,
                "host_cancelled", withdrawnCall.get().call().name(), null, runId, decided.agentConfiguration(),
                host, decided.model(), HOST_CANCELLED);
        RunClaims.ClaimResult claim = runs.claim(decision, new DecisionStart(withdrawn, resume.start().intents()));
        if (!(claim instanceof RunClaims.ClaimResult.Claimed claimed)) {
            return false;
        }
        decisions.handBackToGateway(claimed.run().lease(), decision);
        return true;
    }

    /** A person's decision won the race with the disconnect: it was left for this gateway, which refuses it. */
    private boolean endForGoneHost(String runId, String message, RunClaims.ClaimResult lost) {
        return lost instanceof DecisionResult.AlreadyDecided && endForGoneHost(runId, message);
    }
}
