package io.countersign.service;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Actor;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.port.ActorDirectory;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.IdGenerator;
import io.countersign.engine.port.RunQueue;
import io.countersign.engine.port.RunRepository;
import io.countersign.engine.port.StoreChanges;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.state.DamagedRunException;
import io.countersign.engine.state.RunStatus;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Consumer;

/** Queued execution over the {@link RunQueue}, with the run service's checks and resumption. */
public final class DefaultExecutionService implements ExecutionService {
    private final DefaultRunService runs;
    private final RunRepository repository;
    private final RunQueue queue;
    private final ActorDirectory users;
    private final StoreChanges changes;
    private final Clock clock;
    private final IdGenerator ids;
    private final Permissions permissions;

    public DefaultExecutionService(DefaultRunService runs, RunRepository repository, RunQueue queue,
                                   ActorDirectory users, StoreChanges changes, Clock clock, IdGenerator ids) {
        this.runs = Objects.requireNonNull(runs, "runs");
        this.repository = Objects.requireNonNull(repository, "repository");
        this.queue = Objects.requireNonNull(queue, "queue");
        this.users = Objects.requireNonNull(users, "users");
        this.changes = Objects.requireNonNull(changes, "changes");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.ids = Objects.requireNonNull(ids, "ids");
        this.permissions = new Permissions(users);
    }

    @Override
    public StartedRun enqueue(Actor actor, String agent, String prompt, boolean unattended) {
        AgentConfiguration configuration = runs.startable(actor, agent, prompt);
        String runId = ids.next();
        queue.enqueue(runId, configuration.name(), actor.name(), prompt, unattended, clock.instant());
        return new StartedRun(runId, RunStatus.QUEUED);
    }

    @Override
    public DecisionResult decideForWorker(Actor actor, String runId, String digest,
                                          List<Decision.CallVerdict> verdicts) {
        return handToWorker(actor, Decision.approval(runId, actor.name(), clock.instant(), digest, verdicts));
    }

    @Override
    public DecisionResult submitInputForWorker(Actor actor, String runId, String digest, ObjectNode values) {
        return handToWorker(actor, Decision.input(runId, actor.name(), clock.instant(), digest, values));
    }

    /** The decision goes the way of every decision, and its last stage queues it for a worker. */
    private DecisionResult handToWorker(Actor decider, Decision decision) {
        return runs.decisions().decide(decider, decision, null, new DecisionPipeline.LastStage.ToWorker(queue));
    }

    @Override
    public RunExecution execution(Actor actor, String runId) {
        permissions.requireNow(actor, Operation.VIEW_TIMELINE);
        StoredRun run = find(runId);
        return new RunExecution(run.runId(), run.status(), run.agent(), run.initiator(), run.unattended(),
                run.createdAt(), run.updatedAt(), run.counters().iterations(),
                run.counters().usage().promptTokens(), run.counters().usage().completionTokens(),
                run.history().observations(), run.history().complete(), run.unknownOutcomeCalls());
    }

    @Override
    public DecisionResult settleUnknownOutcome(Actor actor, String runId, boolean retry) {
        permissions.requireNow(actor, Operation.SETTLE_UNKNOWN_OUTCOME);
        StoredRun run;
        try {
            run = find(runId);
        } catch (DamagedRunException damaged) {
            if (retry) {
                throw damaged;
            }
            // A damaged run has no card to show again, but it can be ended; the store checks it is damaged.
            StoredRun settled = repository.settleUnknownOutcome(runId, false, actor.name(), clock.instant());
            return new DecisionResult.Done(runId, settled.status(), 0, 0);
        }
        if (!run.outcomeUnknown()) {
            return new DecisionResult.NotWaiting(runId, run.status());
        }
        if (retry && run.pausedState() == null) {
            throw new IllegalArgumentException("run " + runId + " never paused, so there is no card to decide again;"
                    + " settle it as failed and start it anew");
        }
        StoredRun settled = repository.settleUnknownOutcome(runId, retry, actor.name(), clock.instant());
        if (retry && settled.status() == RunStatus.FAILED) {
            // a gateway run whose gateway stopped: nothing could carry the card out, so it ended instead
            return new DecisionResult.NotWaiting(runId, settled.status(), settled.failureMessage());
        }
        return new DecisionResult.Done(runId, settled.status(), 0, 0);
    }

    @Override
    public RunWorker worker(Actor actor, RunWorker.Options options, Consumer<RunWorker.Progress> progress) {
        permissions.requireNow(actor, Operation.RUN_WORKER);
        String id = "worker-" + ProcessHandle.current().pid() + "-" + UUID.randomUUID().toString().substring(0, 8);
        return new RunWorker(id, runs, runs.decisions().claimed(), queue, repository, users, changes, clock,
                options, progress);
    }

    private StoredRun find(String runId) {
        return repository.find(runId).orElseThrow(() -> new IllegalArgumentException("no run has the id \"" + runId
                + "\""));
    }
}
