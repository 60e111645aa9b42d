package io.countersign.service;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.countersign.engine.Actor;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.agent.DeadlineAction;
import io.countersign.engine.agent.DecisionDeadlines;
import io.countersign.engine.agent.RunDeadline;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.port.DecisionStart;
import io.countersign.engine.port.IdGenerator;
import io.countersign.engine.port.RunClaims;
import io.countersign.engine.port.RunDeadlines;
import io.countersign.engine.port.RunRepository;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.run.PreparedResume;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.state.RunStatus;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Applies the fallback of every waiting run whose deadline passed, exactly once whichever process does it: a deny or
 * a cancel is a decision by {@link DecisionDeadlines#ACTOR}, claimed with the same atomic claim a person's decision
 * takes (and only while the deadline still has passed), so a person and the deadline never both win; an
 * escalation is one conditional update.
 */
final class DeadlineFallbacks {
    /** Runs looked at per query; a sweep queries again until no overdue run is left that it has not seen. */
    private static final int BATCH = 500;

    private final RunRepository runs;
    private final RunDeadlines deadlines;
    private final AgentDirectory agents;
    private final DecisionPipeline decisions;
    private final Clock clock;
    private final IdGenerator ids;

    DeadlineFallbacks(RunRepository runs, RunDeadlines deadlines, AgentDirectory agents, DecisionPipeline decisions,
                      Clock clock, IdGenerator ids) {
        this.runs = runs;
        this.deadlines = deadlines;
        this.agents = agents;
        this.decisions = decisions;
        this.clock = clock;
        this.ids = ids;
    }

    /** Applies every overdue run's fallback; what happened to each, earliest deadline first. */
    List<DeadlineApplied> sweep() {
        List<DeadlineApplied> applied = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        boolean more = true;
        while (more) {
            Instant now = clock.instant();
            List<String> due = deadlines.due(now, BATCH + seen.size()).stream().filter(seen::add).toList();
            more = !due.isEmpty();
            due.forEach(runId -> applied.add(apply(runId, now)));
        }
        return applied;
    }

    private DeadlineApplied apply(String runId, Instant now) {
        // A gateway run whose gateway stopped ends instead: no fallback's decision could be carried out for it.
        Optional<StoredRun> found = decisions.readCard(runId)
                .filter(run -> run.status().waiting() && run.pausedState() != null);
        Optional<RunDeadline> deadline = deadlines.deadline(runId).filter(due -> !due.due().isAfter(now));
        if (found.isEmpty() || deadline.isEmpty()) {
            return new DeadlineApplied(runId, DeadlineApplied.Outcome.LOST, null);
        }
        StoredRun run = found.get();
        PausedState state = run.pausedState();
        DeadlineAction action = deadline.get().action();
        if (action == DeadlineAction.ESCALATE && !deadline.get().escalated()) {
            GovernanceEvent event = event(EventType.APPROVAL_ESCALATED, "escalate", run, now,
                    "escalated to " + deadline.get().escalationRole().name().toLowerCase(Locale.ROOT));
            return new DeadlineApplied(runId, deadlines.escalate(runId, state.digest(), now, event)
                    ? DeadlineApplied.Outcome.ESCALATED : DeadlineApplied.Outcome.LOST, null);
        }
        try {
            return action == DeadlineAction.CANCEL || state.status() == RunStatus.WAITING_FOR_INPUT
                    ? cancel(run, now) : deny(run, now);
        } catch (RuntimeException e) {
            return new DeadlineApplied(runId, DeadlineApplied.Outcome.NOT_APPLIED, e.getMessage());
        }
    }

    /** Declines every waiting call, as a person's denial would, and carries the run on from the refusals. */
    private DeadlineApplied deny(StoredRun run, Instant now) {
        PausedState state = run.pausedState();
        AgentConfiguration configuration = agents.get(run.agent());
        Decision decision = state.denyAll(DecisionDeadlines.ACTOR, now, DecisionDeadlines.DENIAL_REASON);
        // Only approved calls' previews are checked again, so a denial of every call is always ready.
        PreparedResume.Ready resume = (PreparedResume.Ready) decisions.claimed().prepare(state, configuration,
                decision);
        GovernanceEvent decided = resume.start().decisionEvent();
        GovernanceEvent expired = new GovernanceEvent(decided.id(), now, EventType.APPROVAL_EXPIRED, "deny",
                decided.toolName(), null, run.runId(), decided.agentConfiguration(), DecisionDeadlines.ACTOR,
                decided.model(), decision.summary());
        RunClaims.ClaimResult claim = decisions.claim(decision,
                new DecisionStart(expired, resume.start().intents()));
        if (!(claim instanceof RunClaims.ClaimResult.Claimed claimed)) {
            return new DeadlineApplied(run.runId(), DeadlineApplied.Outcome.LOST, null);
        }
        decisions.claimed().carryOutHere(claimed.run(), decision, resume);
        return new DeadlineApplied(run.runId(), DeadlineApplied.Outcome.DENIED, null);
    }

    /** Ends the run as cancelled; nothing of its waiting turn runs. */
    private DeadlineApplied cancel(StoredRun run, Instant now) {
        PausedState state = run.pausedState();
        boolean input = state.status() == RunStatus.WAITING_FOR_INPUT;
        Decision decision = (input ? Decision.input(run.runId(), DecisionDeadlines.ACTOR, now, state.digest(),
                JsonNodeFactory.instance.objectNode())
                : state.denyAll(DecisionDeadlines.ACTOR, now, DecisionDeadlines.DENIAL_REASON))
                .withSummary("expired: run cancelled");
        GovernanceEvent expired = event(EventType.APPROVAL_EXPIRED, "cancel", run, now, decision.summary());
        RunClaims.ClaimResult claim = decisions.claim(decision, new DecisionStart(expired, List.of()));
        if (!(claim instanceof RunClaims.ClaimResult.Claimed claimed)) {
            return new DeadlineApplied(run.runId(), DeadlineApplied.Outcome.LOST, null);
        }
        decisions.claimed().recordWait(claimed.run(), decision);
        runs.recordOutcome(claimed.run().lease(), new RunOutcome.Cancelled(run.runId(), state.transcript(),
                state.history(), state.counters()), now);
        return new DeadlineApplied(run.runId(), DeadlineApplied.Outcome.CANCELLED, null);
    }

    private GovernanceEvent event(EventType type, String reason, StoredRun run, Instant now, String detail) {
        PausedState state = run.pausedState();
        return new GovernanceEvent(ids.next(), now, type, reason, state.waitingToolNames().get(0), null, run.runId(),
                run.agent(), DecisionDeadlines.ACTOR, state.model().name(), detail);
    }

    /** See {@link RunService#extend}; the caller checked the actor's role. */
    DeadlineExtension extend(Actor actor, String runId) {
        Optional<StoredRun> found = runs.find(runId).filter(run -> run.status().waiting() && run.pausedState() != null);
        if (found.isEmpty()) {
            return new DeadlineExtension.Refused(runId, "run " + runId + " does not wait for a decision");
        }
        StoredRun run = found.get();
        Instant now = clock.instant();
        GovernanceEvent event = new GovernanceEvent(ids.next(), now, EventType.DEADLINE_EXTENDED, null,
                run.pausedState().waitingToolNames().get(0), null, runId, run.agent(), actor.name(),
                run.pausedState().model().name(), null);
        RunDeadlines.ExtendResult result = deadlines.extend(runId, actor.name(), now, event);
        if (result instanceof RunDeadlines.ExtendResult.Extended extended) {
            return new DeadlineExtension.Extended(runId, extended.deadline());
        }
        if (result instanceof RunDeadlines.ExtendResult.AlreadyExtended before) {
            return new DeadlineExtension.Refused(runId, "the deadline of run " + runId + " was already extended by "
                    + before.by() + " at " + before.at() + "; a deadline extends only once");
        }
        return new DeadlineExtension.Refused(runId, "run " + runId + " waits without a deadline");
    }
}
