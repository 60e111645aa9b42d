package io.countersign.console;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Actor;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.RunSummary;
import io.countersign.engine.port.WaitingRun;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.tool.InputValidation;
import io.countersign.service.AgentSummary;
import io.countersign.service.RunCard;
import io.countersign.service.RunService;
import io.countersign.service.RunTimeline;
import io.countersign.service.StartedRun;
import io.countersign.tools.NetworkntSchemaValidator;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A run service that keeps its cards in memory, for the console's benchmark: it answers the inbox with any
 * number of waiting runs at no cost, so the figures measure the screens alone.
 */
final class InMemoryRunService implements RunService {
    private final Map<String, RunCard> cards = new LinkedHashMap<>();
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

    synchronized void add(RunCard card) {
        cards.put(card.runId(), card);
        listeners.forEach(listener -> new Thread(listener, "change-feed").start());
    }

    @Override
    public List<AgentSummary> agents(Actor actor) {
        return List.of();
    }

    @Override
    public StartedRun start(Actor actor, String agent, String prompt, boolean unattended) {
        throw new UnsupportedOperationException("the benchmark starts no runs");
    }

    @Override
    public synchronized List<WaitingRun> inbox(Actor actor) {
        List<WaitingRun> runs = new ArrayList<>();
        for (RunCard card : cards.values()) {
            boolean input = card.input() != null;
            runs.add(new WaitingRun(card.runId(), card.status(), card.agent(), card.initiator(), card.prompt(),
                    card.waitingSince(), input ? List.of(card.input().tool())
                    : card.pending().stream().map(RunCard.PendingCallView::tool).toList(), card.refused().size(),
                    card.digest(), null, null,
                    card.pending().stream().anyMatch(c -> c.effect() == io.countersign.engine.tool.ToolEffect.WRITE),
                    card.pending().stream().anyMatch(RunCard.PendingCallView::remote)));
        }
        runs.sort(Comparator.comparing(WaitingRun::waitingSince));
        return runs;
    }

    @Override
    public List<RunSummary> recent(Actor actor, int limit) {
        return List.of();
    }

    @Override
    public synchronized Optional<RunCard> card(Actor actor, String runId) {
        return Optional.ofNullable(cards.get(runId));
    }

    @Override
    public synchronized DecisionResult decide(Actor actor, String runId, String digest,
                                              List<Decision.CallVerdict> verdicts,
                                              io.countersign.service.Allowance allowance) {
        RunCard card = cards.remove(runId);
        if (card == null) {
            return new DecisionResult.NotWaiting(runId, RunStatus.COMPLETED);
        }
        int approved = (int) verdicts.stream().filter(Decision.CallVerdict::approved).count();
        return new DecisionResult.Done(runId, RunStatus.COMPLETED, approved, verdicts.size() - approved);
    }

    @Override
    public io.countersign.engine.run.EditCheck checkEdit(Actor actor, String runId, int index, ObjectNode arguments) {
        return new io.countersign.engine.run.EditCheck.Fits(index, arguments, List.of(), null);
    }

    @Override
    public Optional<ObjectNode> argumentSchema(Actor actor, String tool) {
        return Optional.empty();
    }

    @Override
    public synchronized DecisionResult submitInput(Actor actor, String runId, String digest, ObjectNode values) {
        RunCard card = cards.get(runId);
        List<InputValidation.FieldError> errors = InputValidation.validate(new NetworkntSchemaValidator(),
                card.input().fields(), values);
        if (!errors.isEmpty()) {
            return new DecisionResult.InvalidInput(runId, errors);
        }
        cards.remove(runId);
        return new DecisionResult.Done(runId, RunStatus.COMPLETED, 0, 0);
    }

    @Override
    public RunTimeline timeline(Actor actor, String runId) {
        return new RunTimeline(runId, RunStatus.COMPLETED, "agent", "person", Instant.EPOCH, null, List.of());
    }

    @Override
    public AutoCloseable onChange(Runnable listener) {
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }
}
