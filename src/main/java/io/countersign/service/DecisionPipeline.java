package io.countersign.service;

import io.countersign.engine.Actor;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.DecisionStart;
import io.countersign.engine.port.RunClaims;
import io.countersign.engine.port.RunQueue;
import io.countersign.engine.port.RunRepository;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.run.PreparedResume;
import io.countersign.engine.tool.InvalidInputException;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The one path of a person's decision on a card, in named stages: {@link #readCard read the card}, {@link
 * #checkPerson check the person}, {@link #checkEditsAndGrants check edits and grants}, {@link #prepareResume prepare
 * the resume}, {@link #countQuorum count the quorum}, {@link #claim claim}, and a last stage that differs by entry:
 * {@link ClaimedDecisions#carryOutHere carry out here}, {@link #handToWorker hand to a worker}, or {@link
 * ClaimedDecisions#handBackToGateway hand back to the gateway} (always, for a run a gateway drives). The stages are
 * also what a deadline's fallback, a host's cancellation, a worker and recovery take for their own decisions.
 */
final class DecisionPipeline {
    private final RunRepository runs;
    private final Permissions permissions;
    private final DecisionServers servers;
    private final DecisionChecks checks;
    private final EditsAndGrants extras;
    private final QuorumGate quorum;
    private final ClaimedDecisions claimed;
    private final Clock clock;

    DecisionPipeline(RunRepository runs, Permissions permissions, DecisionServers servers, DecisionChecks checks,
                     EditsAndGrants extras, QuorumGate quorum, ClaimedDecisions claimed, Clock clock) {
        this.runs = Objects.requireNonNull(runs, "runs");
        this.permissions = Objects.requireNonNull(permissions, "permissions");
        this.servers = Objects.requireNonNull(servers, "servers");
        this.checks = Objects.requireNonNull(checks, "checks");
        this.extras = Objects.requireNonNull(extras, "extras");
        this.quorum = Objects.requireNonNull(quorum, "quorum");
        this.claimed = Objects.requireNonNull(claimed, "claimed");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Where a decision that passed every stage goes once claimed, for a run that no gateway drives. */
    sealed interface LastStage {
        /** Carried out in this process, at once. */
        LastStage HERE = new Here();

        record Here() implements LastStage {
        }

        /** Queued with the decision, for a worker that has the calls' servers. */
        record ToWorker(RunQueue queue) implements LastStage {
        }
    }

    /** Takes the person's decision through every stage, ending in {@code last}. */
    DecisionResult decide(Actor asked, Decision decision, Allowance allowance, LastStage last) {
        Actor decider = permissions.current(asked);
        Optional<StoredRun> found = readCard(decision.runId());
        if (found.isPresent()) {
            List<String> notConnected = connectServers(found.get(), decision);
            if (!notConnected.isEmpty()) {
                return new DecisionResult.ServersNotConnected(decision.runId(), notConnected);
            }
        }
        DecisionChecks.Checked checked = checkPerson(decider, found, decision);
        if (!(checked instanceof DecisionChecks.Checked.Claimable card)) {
            return ((DecisionChecks.Checked.Refused) checked).result();
        }
        EditsAndGrants.Checked added = checkEditsAndGrants(card, decider, allowance);
        if (added instanceof EditsAndGrants.Checked.Refused refused) {
            return refused.result();
        }
        PreparedResume prepared;
        try {
            prepared = prepareResume(card);
        } catch (InvalidInputException e) {
            return new DecisionResult.InvalidInput(decision.runId(), e.errors());
        }
        if (prepared instanceof PreparedResume.PreviewsChanged changed) {
            return putBackChanged(decision, changed);
        }
        PreparedResume.Ready resume = (PreparedResume.Ready) prepared;
        DecisionChecks.Checked counted = countQuorum(card);
        if (!(counted instanceof DecisionChecks.Checked.Claimable complete)) {
            return ((DecisionChecks.Checked.Refused) counted).result();
        }
        Decision decided = complete.decision();
        boolean gateway = ClaimedDecisions.hostDriven(card.run());
        // A gateway's or a worker's carrying out prepares the decision again and writes its start then.
        RunClaims.ClaimResult claim = gateway ? claim(decided, DecisionStart.NONE)
                : last instanceof LastStage.ToWorker worker ? worker.queue().claimForWorker(decided)
                : claim(decided, resume.start());
        if (!(claim instanceof RunClaims.ClaimResult.Claimed won)) {
            return (DecisionResult.Refusal) claim;
        }
        extras.claimed(added, won.run());
        if (gateway) {
            return claimed.handBackToGateway(won.run().lease(), decided);
        }
        return last instanceof LastStage.ToWorker ? handToWorker(won.run(), decided)
                : claimed.carryOutHere(won.run(), decided, resume);
    }

    /**
     * Read the card: the run as it stands, once; a gateway run whose gateway stopped is ended here first, as no
     * decision could be carried out for it. The claim checks again, in its transaction, that the card still waits.
     */
    Optional<StoredRun> readCard(String runId) {
        Optional<StoredRun> found = runs.find(runId);
        if (found.isPresent() && ClaimedDecisions.hostDriven(found.get())
                && runs.endWithoutGateway(runId, clock.instant())) {
            return runs.find(runId);
        }
        return found;
    }

    /**
     * The servers of the calls the decision lets run, connected here so that the approver's rights are checked on
     * their tools; those that did not connect, in name order.
     */
    private List<String> connectServers(StoredRun run, Decision decision) {
        if (!run.status().waiting() || run.pausedState() == null) {
            return List.of();
        }
        return servers.missing(run.runId(), servers.needed(run.pausedState(), decision));
    }

    /** Check the person: their role, a card that still waits as they saw it, four eyes, their rights on the calls. */
    DecisionChecks.Checked checkPerson(Actor decider, Optional<StoredRun> found, Decision decision) {
        return checks.check(decider, found, decision);
    }

    /** Check the edits and grants: a person's edited arguments, and the standing grants an allowance makes. */
    EditsAndGrants.Checked checkEditsAndGrants(DecisionChecks.Checked.Claimable card, Actor decider,
                                               Allowance allowance) {
        return extras.check(card.run(), card.configuration(), decider, card.decision(), allowance);
    }

    /** Prepare the resume: the decision applied to the pause, nothing written yet. */
    PreparedResume prepareResume(DecisionChecks.Checked.Claimable card) {
        return claimed.prepare(card.run().pausedState(), card.configuration(), card.decision());
    }

    /** Count the quorum: an approval that needs more people than one goes on only as the last of them. */
    DecisionChecks.Checked countQuorum(DecisionChecks.Checked.Claimable card) {
        return quorum.count(card);
    }

    /** Claim: the decision committed for this process, with what it writes ahead of its calls. */
    RunClaims.ClaimResult claim(Decision decision, DecisionStart start) {
        return runs.claim(decision, start);
    }

    /** A preview changed: the decision is claimed and put back with the changed card, so every decider sees it. */
    private DecisionResult putBackChanged(Decision decision, PreparedResume.PreviewsChanged changed) {
        RunClaims.ClaimResult claim = claim(decision, DecisionStart.NONE);
        if (claim instanceof RunClaims.ClaimResult.Claimed won) {
            return claimed.putBack(won.run().lease(), changed);
        }
        return (DecisionResult.Refusal) claim;
    }

    /** Hand to a worker: the decision waits queued; nothing has run yet, so nothing has failed. */
    private static DecisionResult handToWorker(StoredRun queued, Decision decision) {
        return ClaimedDecisions.done(queued.runId(), queued.status(), decision, List.of());
    }

    /** The carrying out of claimed decisions: the last stages, a worker's and recovery's. */
    ClaimedDecisions claimed() {
        return claimed;
    }
}
