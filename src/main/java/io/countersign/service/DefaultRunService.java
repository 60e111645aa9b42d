package io.countersign.service;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Actor;
import io.countersign.engine.event.DecisionRecord;
import io.countersign.engine.invocation.InvocationRules;
import io.countersign.engine.invocation.ToolExecutionContext;
import io.countersign.engine.port.ChatModel;
import io.countersign.engine.port.IdGenerator;
import io.countersign.engine.port.RunRepository;
import io.countersign.engine.port.ServerRecords;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.run.AgentConfiguration;
import io.countersign.engine.run.ApprovalDecision;
import io.countersign.engine.run.InputSubmission;
import io.countersign.engine.run.PausedState;
import io.countersign.engine.run.PendingCall;
import io.countersign.engine.run.RunOptions;
import io.countersign.engine.run.RunOutcome;
import io.countersign.engine.run.RunRequest;
import io.countersign.engine.run.RunStateException;
import io.countersign.engine.run.RunStatus;
import io.countersign.engine.run.ToolLoop;
import io.countersign.engine.run.WaitingRunSummary;
import io.countersign.engine.tool.InvalidInputException;
import io.countersign.engine.tool.RemoteTool;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.ToolEffect;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.store.ChangeKind;
import io.countersign.store.EventStore;
import io.countersign.store.Store;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The operator's use cases over the durable store and the tool loop. A decision is claimed and committed in the
 * store before the loop resumes, so two deciders never both win and a decision reported done is never lost.
 */
public final class DefaultRunService implements RunService {
    private final RunRepository runs;
    private final AgentDirectory agents;
    private final ToolLoop loop;
    private final ToolRegistry registry;
    private final Function<Runnable, AutoCloseable> changes;
    private final Clock clock;
    private final IdGenerator ids;
    private final Locale locale;
    private final RunCards cards;
    private final RunTimelines timelines;
    private final DecisionChecks checks;

    /**
     * @param changes subscribes a listener to run and decision changes and returns the subscription
     * @param servers the server records, to tell a remote tool whose server is not connected from an unknown one
     * @param locale  the locale of the people behind runs started here, for rule explanations
     */
    public DefaultRunService(RunRepository runs, AgentDirectory agents, ToolLoop loop, ToolRegistry registry,
                             EventStore events, ServerRecords servers, Function<Runnable, AutoCloseable> changes,
                             Clock clock, IdGenerator ids, Locale locale) {
        this.runs = Objects.requireNonNull(runs, "runs");
        this.agents = Objects.requireNonNull(agents, "agents");
        this.loop = Objects.requireNonNull(loop, "loop");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.changes = Objects.requireNonNull(changes, "changes");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.ids = Objects.requireNonNull(ids, "ids");
        this.locale = Objects.requireNonNull(locale, "locale");
        this.cards = new RunCards(registry, agents);
        this.timelines = new RunTimelines(events, registry);
        this.checks = new DecisionChecks(runs, agents, loop.accessPolicy(), Objects.requireNonNull(servers, "servers"),
                clock);
    }

    /**
     * The service over one store, wired as every process runs it: a tool loop on the given tools and model that
     * reads the store's tool settings, records governance events in it and journals each call's execution there,
     * and the store's runs, agents and change feed behind the use cases.
     */
    public static DefaultRunService overStore(Store store, ToolRegistry registry, ChatModel model,
                                              InvocationRules rules, Clock clock, IdGenerator ids, Locale locale) {
        ToolLoop loop = ToolLoop.builder(registry, model)
                .settings(store.settings())
                .invocationPolicies(rules.invocationPolicy(), rules.preApprovalPolicy())
                .events(store.events())
                .journal(store.runs().journal())
                .clock(clock)
                .ids(ids)
                .build();
        return new DefaultRunService(store.runs(), new AgentDirectory(store.configurations()), loop, registry,
                store.events(), store.servers(), listener -> store.changes().subscribe(kind -> {
                    if (kind == ChangeKind.RUN || kind == ChangeKind.DECISION) {
                        listener.run();
                    }
                }), clock, ids, locale);
    }

    @Override
    public List<AgentSummary> agents(Actor actor) {
        Permissions.require(actor, Operation.LIST_AGENTS);
        return agents.list().stream().map(stored -> {
            var model = agents.findModel(stored.modelName());
            return new AgentSummary(stored.name(), stored.modelName(),
                    model.map(m -> m.trustZone().code()).orElse("unknown"), stored.toolGroups(), stored.fourEyes(),
                    model.map(m -> m.provider().equals("scripted")).orElse(false));
        }).toList();
    }

    @Override
    public StartedRun start(Actor actor, String agent, String prompt, boolean unattended) {
        AgentConfiguration configuration = startable(actor, agent, prompt);
        String runId = ids.next();
        runs.create(runId, configuration.name(), actor.name(), prompt, unattended, clock.instant());
        return firstStretch(configuration, actor, runId, prompt, unattended);
    }

    /** The configuration a new run of the agent starts with, once the actor may start it with this prompt. */
    AgentConfiguration startable(Actor actor, String agent, String prompt) {
        Permissions.require(actor, Operation.START_RUN);
        if (prompt == null || prompt.isBlank()) {
            throw new IllegalArgumentException("a run needs a prompt");
        }
        return agents.get(agent);
    }

    /**
     * Runs the first stretch of a queued run that a worker claimed, under its initiator's identity. A run whose
     * agent configuration no longer runs ends as failed with reason {@code agent_unavailable}.
     */
    StartedRun firstStretch(StoredRun queued, Actor initiator) {
        AgentConfiguration configuration;
        try {
            configuration = agents.get(queued.agent());
        } catch (IllegalArgumentException e) {
            runs.recordOutcome(new RunOutcome.Failed(queued.runId(), "agent_unavailable", e.getMessage(), List.of(),
                    queued.history(), queued.counters()), clock.instant());
            return new StartedRun(queued.runId(), RunStatus.FAILED);
        }
        return firstStretch(configuration, initiator, queued.runId(), queued.prompt(), queued.unattended());
    }

    private StartedRun firstStretch(AgentConfiguration configuration, Actor initiator, String runId, String prompt,
                                    boolean unattended) {
        RunRequest request = RunRequest.of(configuration, ToolExecutionContext.of(initiator, runId, locale), prompt)
                .withOptions(unattended ? RunOptions.unattendedRun() : RunOptions.DEFAULTS);
        RunOutcome outcome = loop.runLoop(request);
        runs.recordOutcome(outcome, clock.instant());
        return new StartedRun(runId, outcome.status());
    }

    @Override
    public List<WaitingRun> inbox(Actor actor) {
        Permissions.require(actor, Operation.VIEW_INBOX);
        return runs.waitingSummaries().stream().map(this::waitingRun).toList();
    }

    private WaitingRun waitingRun(WaitingRunSummary run) {
        List<Optional<Tool>> tools = run.waitingTools().stream().map(registry::find).toList();
        boolean hasWrite = tools.stream().anyMatch(tool -> tool.map(t -> t.effect() == ToolEffect.WRITE)
                .orElse(false));
        boolean hasRemote = tools.stream().anyMatch(tool -> tool.map(t -> t instanceof RemoteTool).orElse(false));
        return new WaitingRun(run.runId(), run.status(), run.agent(), run.initiator(), run.waitingSince(),
                run.prompt(), run.waitingTools().get(0),
                run.status() == RunStatus.WAITING_FOR_APPROVAL ? run.waitingTools().size() : 0, run.refusedCount(),
                hasWrite, hasRemote, run.digest());
    }

    @Override
    public List<RunSummary> recent(Actor actor, int limit) {
        Permissions.require(actor, Operation.VIEW_TIMELINE);
        return runs.recent(limit).stream().map(run -> new RunSummary(run.runId(), run.agent(), run.initiator(),
                run.status(), run.createdAt(), run.updatedAt(), run.prompt(), run.failureReason(),
                run.outcomeUnknown())).toList();
    }

    @Override
    public Optional<RunCard> card(Actor actor, String runId) {
        Permissions.require(actor, Operation.VIEW_INBOX);
        return runs.find(runId).filter(run -> run.status().waiting() && run.pausedState() != null)
                .map(run -> cards.of(actor, run));
    }

    @Override
    public DecisionResult decide(Actor actor, String runId, String digest,
                                 List<ApprovalDecision.CallVerdict> verdicts) {
        return decideHere(actor, runId, digest, CardAnswer.verdicts(verdicts));
    }

    @Override
    public DecisionResult submitInput(Actor actor, String runId, String digest, ObjectNode values) {
        return decideHere(actor, runId, digest, CardAnswer.input(values));
    }

    /** Checks a decision, commits it with this process's claim and resumes the run here. */
    private DecisionResult decideHere(Actor decider, String runId, String digest, CardAnswer answer) {
        DecisionChecks.Checked checked = check(decider, runId, digest, answer);
        if (!(checked instanceof DecisionChecks.Checked.Claimable ready)) {
            return ((DecisionChecks.Checked.Refused) checked).result();
        }
        RunRepository.ClaimResult claim = runs.claim(ready.decision());
        if (claim instanceof RunRepository.ClaimResult.Claimed claimed) {
            return resume(claimed.run(), ready.configuration(), decider, ready.decision());
        }
        return DecisionChecks.refusedClaim(runId, claim);
    }

    /** The checks of a decision, for whoever claims it next (this process, or the queue of a worker). */
    DecisionChecks.Checked check(Actor decider, String runId, String digest, CardAnswer answer) {
        return checks.check(decider, runId, digest, answer);
    }

    /**
     * Carries out a claimed run's committed decision: the approved calls, or the call that asked for input, run
     * under the run owner's identity; {@code decider} is who decided.
     */
    private DecisionResult resume(StoredRun run, AgentConfiguration configuration, Actor decider,
                                  DecisionRecord decision) {
        PausedState state = run.pausedState();
        RunOutcome outcome;
        try {
            outcome = switch (decision.kind()) {
                case APPROVAL -> loop.resumeApproval(state, configuration,
                        new ApprovalDecision(decider, decision.verdicts()));
                case INPUT -> loop.resumeInput(state, configuration, new InputSubmission(decider, decision.input()));
            };
        } catch (InvalidInputException e) {
            runs.release(state, clock.instant());
            return new DecisionResult.InvalidInput(run.runId(), e.errors());
        } catch (RunStateException e) {
            runs.release(state, clock.instant());
            throw e;
        }
        if (decision.kind() == DecisionRecord.Kind.APPROVAL && outcome instanceof RunOutcome.WaitingForApproval again
                && samePause(state, again.state())) {
            // A preview changed since the card was shown: nothing ran, the person must look again.
            runs.release(again.state(), clock.instant());
            return new DecisionResult.Stale(run.runId(), again.state().digest());
        }
        runs.recordOutcome(outcome, clock.instant());
        return DecisionChecks.done(run.runId(), outcome.status(), decision,
                ResumedCalls.failed(state, decision, outcome));
    }

    /**
     * Carries out the committed decision of a run that a worker claimed ({@link StoredRun#lastDecision()}), as the
     * decider's own process would have: the approved calls run under the run owner's identity.
     *
     * @param decider the person who decided, with their roles as the store knows them now
     */
    DecisionResult resumeDecided(StoredRun claimed, Actor decider) {
        return resume(claimed, agents.get(claimed.agent()), decider, claimed.lastDecision());
    }

    /**
     * Start-up recovery, without a role check (it is the process's own, not a person's request): reconciles the
     * runs that stopped processes left running, and carries out again every committed decision none of whose
     * calls had started. Runs with a call whose outcome is unknown are flagged and left for a person; a first
     * stretch that never paused fails as {@code interrupted}. Resuming calls the runs' models.
     */
    public List<Resumption> resumeInterrupted() {
        List<Resumption> resumptions = new ArrayList<>();
        for (StoredRun run : runs.reconcile(clock.instant())) {
            resumptions.add(resumeInterrupted(run));
        }
        return resumptions;
    }

    /** Carries out a reconciled run's committed decision, as the decider's own request would have. */
    private Resumption resumeInterrupted(StoredRun run) {
        DecisionRecord decision = run.lastDecision();
        AgentConfiguration configuration;
        try {
            configuration = agents.get(run.agent());
        } catch (IllegalArgumentException e) {
            runs.release(run.pausedState(), clock.instant());
            return new Resumption.NotCarriedOut(run.runId(), decision.decidedBy(), e.getMessage(), true);
        }
        // The decider's roles were checked when the decision was taken; carrying it out needs only their name.
        Actor decider = new Actor(decision.decidedBy(), Set.of());
        try {
            return new Resumption.CarriedOut(run.runId(), decision.decidedBy(),
                    resume(run, configuration, decider, decision));
        } catch (RunStateException e) {
            return new Resumption.NotCarriedOut(run.runId(), decision.decidedBy(), e.getMessage(), true);
        } catch (RuntimeException e) {
            return new Resumption.NotCarriedOut(run.runId(), decision.decidedBy(), e.getMessage(), false);
        }
    }

    private static boolean samePause(PausedState before, PausedState after) {
        return before.transcript().size() == after.transcript().size()
                && after.calls().stream().anyMatch(PendingCall::stale);
    }

    @Override
    public RunTimeline timeline(Actor actor, String runId) {
        Permissions.require(actor, Operation.VIEW_TIMELINE);
        return timelines.of(runs.find(runId).orElseThrow(() -> new IllegalArgumentException("no run has the id \""
                + runId + "\"")));
    }

    @Override
    public AutoCloseable onChange(Runnable listener) {
        return changes.apply(listener);
    }
}
