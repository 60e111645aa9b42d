package io.countersign.service;

import io.countersign.engine.Actor;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.port.WaitingRun;
import io.countersign.engine.state.RunStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Deciding many approval cards at once, for the console's selection and the command line's {@code decide
 * --all-matching}: first a {@link BatchPlan} of what will happen per card, then each card decided on its own, on
 * the digest it was shown with, through the one decision path every card goes (its checks, its claim, two-person
 * approval). Nothing is decided for a card that changed or was decided elsewhere meanwhile.
 */
public final class BatchDecisions {
    private final RunService runs;

    public BatchDecisions(RunService runs) {
        this.runs = Objects.requireNonNull(runs, "runs");
    }

    /**
     * The approval cards waiting now of the agent, with a waiting call of the tool; either may be {@code null} for
     * any. Oldest first, as the inbox lists them.
     */
    public List<String> matching(Actor actor, String agent, String tool) {
        return runs.inbox(actor).stream().filter(run -> run.status() == RunStatus.WAITING_FOR_APPROVAL
                        && run.damage() == null && (agent == null || agent.equals(run.agent())))
                .map(WaitingRun::runId)
                .filter(runId -> tool == null || runs.card(actor, runId).stream()
                        .anyMatch(card -> card.pending().stream().anyMatch(call -> call.tool().equals(tool))))
                .toList();
    }

    /** Reads the card of every run, in the given order; runs that no longer wait for approval are named as gone. */
    public BatchPlan plan(Actor actor, List<String> runIds) {
        List<BatchPlan.Card> cards = new ArrayList<>();
        List<String> gone = new ArrayList<>();
        for (String runId : runIds.stream().distinct().toList()) {
            Optional<RunCard> card = runs.card(actor, runId)
                    .filter(found -> found.status() == RunStatus.WAITING_FOR_APPROVAL);
            if (card.isEmpty()) {
                gone.add(runId);
                continue;
            }
            RunCard shown = card.get();
            cards.add(new BatchPlan.Card(shown.runId(), shown.agent(), shown.initiator(), shown.digest(),
                    shown.pending().stream().map(call -> new BatchPlan.Call(call.index(), call.tool(),
                            call.target(), call.argumentsJson())).toList(),
                    shown.refused().stream().map(call -> new BatchPlan.Refused(call.tool(), call.target(),
                            call.rule(), call.argumentsJson())).toList(), shown.approvals()));
        }
        return new BatchPlan(cards, gone);
    }

    /**
     * Decides every card of the plan on its own, on its digest as shown, approving or denying each of its waiting
     * calls; one card's refusal or failure does not stop the others.
     *
     * @param reason why the calls are denied, which the models read; required for a denial
     */
    public BatchResult decide(Actor actor, BatchPlan plan, boolean approve, String reason) {
        if (!approve && (reason == null || reason.isBlank())) {
            throw new IllegalArgumentException("denying " + plan.cards().size() + " cards at once needs a reason,"
                    + " which each run's model reads; nothing was decided");
        }
        List<BatchResult.Outcome> outcomes = new ArrayList<>();
        for (BatchPlan.Card card : plan.cards()) {
            List<Decision.CallVerdict> verdicts = card.calls().stream().map(call -> approve
                    ? Decision.CallVerdict.approve(call.index())
                    : Decision.CallVerdict.deny(call.index(), reason.strip())).toList();
            try {
                outcomes.add(new BatchResult.Outcome(card.runId(), card.agent(),
                        runs.decide(actor, card.runId(), card.digest(), verdicts), null));
            } catch (NotPermittedException e) {
                throw e;
            } catch (RuntimeException e) {
                outcomes.add(new BatchResult.Outcome(card.runId(), card.agent(), null,
                        e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
            }
        }
        return new BatchResult(outcomes);
    }
}
