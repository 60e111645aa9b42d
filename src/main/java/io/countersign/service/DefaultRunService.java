package io.countersign.service;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Actor;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.agent.RunDeadline;
import io.countersign.engine.call.ToolExecutionContext;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.invocation.InvocationRules;
import io.countersign.engine.port.ActorDirectory;
import io.countersign.engine.port.ApprovalQuorums;
import io.countersign.engine.port.ChatModel;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.IdGenerator;
import io.countersign.engine.port.RunDeadlines;
import io.countersign.engine.port.RunLease;
import io.countersign.engine.port.RunRepository;
import io.countersign.engine.port.RunSummary;
import io.countersign.engine.port.RunTelemetry;
import io.countersign.engine.port.ServerRecords;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.run.EditCheck;
import io.countersign.engine.run.RunRequest;
import io.countersign.engine.run.ToolLoop;
import io.countersign.engine.port.WaitingRun;
import io.countersign.engine.state.RunOptions;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.tool.SchemaValidator;
import io.countersign.engine.tool.ToolEffect;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.store.EventStore;
import io.countersign.store.Store;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The operator's use cases over the durable store and the tool loop. A decision is claimed and committed in the
 * store before the loop resumes, so two deciders never both win and a decision reported done is never lost.
 */
public final class DefaultRunService implements RunService {
    private final RunRepository runs;
    private final AgentDirectory agents;
    private final ToolLoop loop;
    private final Function<Runnable, AutoCloseable> changes;
    private final Clock clock;
    private final IdGenerator ids;
    private final Locale locale;
    private final RunCards cards;
    private final RunTimelines timelines;
    private final DecisionServers servers;
    private final DecisionPipeline decisions;
    private final AskedInputs asked;
    private final Permissions permissions;
    private final RunDeadlines deadlines;
    private final DeadlineFallbacks fallbacks;
    private final EditsAndGrants extras;

    /**
     * @param changes     subscribes a listener to run and decision changes and returns the subscription
     * @param servers     the MCP server records, which tell a remote call's tool without a connection
     * @param connections connects the servers a decision's calls need before they run
     * @param users       the people and the roles they hold now, checked on every call
     * @param locale      the locale of the people behind runs started here, for rule explanations
     * @param asked       the questions the loop's tools ask during calls, which it was built with
     * @param grants      the standing grants this service makes ({@code null}: none, and an allowance is refused)
     * @param approvals   the approvals cards collect while they need more than one person
     */
    public DefaultRunService(RunRepository runs, RunDeadlines deadlines, AgentDirectory agents, ToolLoop loop,
                             ToolRegistry registry, EventStore events, Function<Runnable, AutoCloseable> changes,
                             ServerRecords servers, ServerConnections connections, ActorDirectory users, Clock clock,
                             IdGenerator ids, Locale locale, AskedInputs asked, DefaultGrants grants,
                             ApprovalQuorums approvals) {
        this.asked = Objects.requireNonNull(asked, "asked");
        this.runs = Objects.requireNonNull(runs, "runs");
        this.deadlines = Objects.requireNonNull(deadlines, "deadlines");
        this.agents = Objects.requireNonNull(agents, "agents");
        this.loop = Objects.requireNonNull(loop, "loop");
        this.changes = Objects.requireNonNull(changes, "changes");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.ids = Objects.requireNonNull(ids, "ids");
        this.locale = Objects.requireNonNull(locale, "locale");
        this.servers = new DecisionServers(Objects.requireNonNull(registry, "registry"),
                Objects.requireNonNull(servers, "servers"), Objects.requireNonNull(connections, "connections"));
        QuorumGate quorum = new QuorumGate(approvals, ids);
        this.cards = new RunCards(this.servers, agents, quorum, runs);
        this.timelines = new RunTimelines(events, registry);
        this.permissions = new Permissions(users);
        this.extras = new EditsAndGrants(new CallEdits(loop, registry), grants, runs, agents);
        this.decisions = new DecisionPipeline(runs, permissions, this.servers,
                new DecisionChecks(agents, loop.accessPolicy(), loop.schemas(), servers), extras, quorum,
                new ClaimedDecisions(runs, agents, loop, this.servers, approvals, clock), clock);
        this.fallbacks = new DeadlineFallbacks(runs, deadlines, agents, decisions, clock, ids);
    }

    /**
     * The service over one store, wired as every process runs it: a tool loop on the given tools and model that
     * reads the store's tool settings, records governance events in it and journals each call's execution there,
     * and the store's runs, agents and change feed behind the use cases. It connects no MCP server: a decided
     * remote call is left to a process that does ({@link #overStore(Store, ToolRegistry, SchemaValidator,
     * ChatModel, InvocationRules, ServerConnections, Clock, IdGenerator, Locale)}).
     */
    public static DefaultRunService overStore(Store store, ToolRegistry registry, SchemaValidator schemas,
                                              ChatModel model, InvocationRules rules, Clock clock, IdGenerator ids,
                                              Locale locale) {
        return overStore(store, registry, schemas, model, rules, ServerConnections.NONE, clock, ids, locale);
    }

    /**
     * As {@link #overStore(Store, ToolRegistry, SchemaValidator, ChatModel, InvocationRules, Clock, IdGenerator,
     * Locale)}, with the MCP servers this process connects for the calls of decisions.
     */
    public static DefaultRunService overStore(Store store, ToolRegistry registry, SchemaValidator schemas,
                                              ChatModel model, InvocationRules rules, ServerConnections connections,
                                              Clock clock, IdGenerator ids, Locale locale) {
        return overStore(store, registry, schemas, model, rules, connections, RunTelemetry.NONE, clock, ids, locale);
    }

    /** As the other, with each run's stretches, waits and governance events told to {@code telemetry}. */
    public static DefaultRunService overStore(Store store, ToolRegistry registry, SchemaValidator schemas,
                                              ChatModel model, InvocationRules rules, ServerConnections connections,
                                              RunTelemetry telemetry, Clock clock, IdGenerator ids, Locale locale) {
        AskedInputs asked = new AskedInputs(clock, ids, schemas);
        AgentDirectory agents = new AgentDirectory(store.configurations());
        DefaultGrants grants = new DefaultGrants(store.grants(), store.users(), agents, clock, ids);
        ToolLoop loop = ToolLoop.builder(registry, model)
                .schemas(schemas)
                .grants(grants.forLoop())
                .inputPrompts(asked)
                .settings(store.settings())
                .invocationRules(rules)
                .events(store.events().forRunLoop())
                .telemetry(telemetry)
                .clock(clock)
                .ids(ids)
                .build();
        return new DefaultRunService(store.runs(), store.runs(), agents, loop, registry, store.events(),
                store.changes()::onRunChange, store.servers(), connections, store.users(), clock, ids, locale, asked, grants,
                store.approvals());
    }

    /** The standing grants this service makes and its loop consults; empty when it keeps none. */
    public Optional<Grants> grants() {
        return extras.grants().map(Grants.class::cast);
    }

    /** The questions this process's calls wait on; a surface attaches to them to show and answer them. */
    public AskedInputs askedInputs() {
        return asked;
    }

    @Override
    public List<AgentSummary> agents(Actor actor) {
        permissions.requireNow(actor, Operation.LIST_AGENTS);
        return agents.summaries();
    }

    @Override
    public StartedRun start(Actor actor, String agent, String prompt, boolean unattended) {
        Actor now = permissions.current(actor);
        AgentConfiguration configuration = startable(now, agent, prompt);
        String runId = ids.next();
        RunLease lease = runs.create(runId, configuration.name(), now.name(), prompt, unattended, clock.instant());
        return firstStretch(configuration, now, lease, prompt, unattended);
    }

    /** The configuration a new run of the agent starts with, once the actor may start it with this prompt. */
    AgentConfiguration startable(Actor actor, String agent, String prompt) {
        permissions.requireNow(actor, Operation.START_RUN);
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
            runs.recordOutcome(queued.lease(), new RunOutcome.Failed(queued.runId(), "agent_unavailable",
                    e.getMessage(), List.of(), queued.history(), queued.counters()), clock.instant());
            return new StartedRun(queued.runId(), RunStatus.FAILED);
        }
        return firstStretch(configuration, initiator, queued.lease(), queued.prompt(), queued.unattended());
    }

    private StartedRun firstStretch(AgentConfiguration configuration, Actor initiator, RunLease lease, String prompt,
                                    boolean unattended) {
        String runId = lease.runId();
        RunRequest request = RunRequest.of(configuration, ToolExecutionContext.of(initiator, runId, locale), prompt)
                .withOptions(unattended ? RunOptions.unattendedRun() : RunOptions.DEFAULTS);
        RunOutcome outcome = loop.runLoop(request, runs.journal(lease));
        runs.recordOutcome(lease, outcome, clock.instant());
        return new StartedRun(runId, outcome.status());
    }

    @Override
    public List<WaitingRun> inbox(Actor actor) {
        permissions.requireNow(actor, Operation.VIEW_INBOX);
        ToolFacts facts = servers.facts();
        return InboxOrder.WAITING.sorted(runs.waitingSummaries().stream()
                .map(run -> run.withToolFacts(tool -> facts.effect(tool) == ToolEffect.WRITE, facts::remote)).toList(), actor);
    }

    @Override
    public List<WaitingRun> inbox(Actor actor, InboxOrder order) {
        return order.sorted(inbox(actor), actor);
    }

    @Override
    public Optional<RunDeadline> deadline(Actor actor, String runId) {
        Permissions.require(actor, Operation.VIEW_INBOX);
        return deadlines.deadline(runId);
    }

    @Override
    public DeadlineExtension extend(Actor actor, String runId) {
        Permissions.require(actor, Operation.EXTEND_DEADLINE);
        return fallbacks.extend(actor, runId);
    }

    /**
     * Applies the fallback of every waiting run whose deadline passed, without a role check (the process's own
     * work, at start-up and then periodically, or {@code countersign deadlines --once}); exactly once across every
     * process on the store. Denying calls the runs' models.
     */
    public List<DeadlineApplied> applyDeadlines() {
        return fallbacks.sweep();
    }

    @Override
    public List<DecidedRun> waitingForServers(Actor actor) {
        permissions.requireNow(actor, Operation.VIEW_INBOX);
        return runs.handedBack().stream().map(run -> {
            Decision decision = run.lastDecision();
            return new DecidedRun(run.runId(), run.agent(), run.initiator(), decision.decidedBy(),
                    decision.decidedAt(), decision instanceof Decision.Approval, decision.summary(),
                    servers.neededNames(run.pausedState(), decision));
        }).toList();
    }

    @Override
    public List<RunSummary> toSettle(Actor actor) {
        permissions.requireNow(actor, Operation.VIEW_INBOX);
        return runs.toSettle();
    }

    @Override
    public List<RunSummary> recent(Actor actor, int limit) {
        permissions.requireNow(actor, Operation.VIEW_TIMELINE);
        return runs.recent(limit);
    }

    @Override
    public Optional<RunCard> card(Actor actor, String runId) {
        Actor now = permissions.requireNow(actor, Operation.VIEW_INBOX);
        return runs.find(runId).filter(run -> run.status().waiting() && run.pausedState() != null)
                .map(run -> cards.of(now, run));
    }

    @Override
    public DecisionResult decide(Actor actor, String runId, String digest, List<Decision.CallVerdict> verdicts,
                                 Allowance allowance) {
        Decision decision = Decision.approval(runId, actor.name(), clock.instant(), digest, verdicts);
        return decisions.decide(actor, decision, allowance, DecisionPipeline.LastStage.HERE);
    }

    @Override
    public EditCheck checkEdit(Actor actor, String runId, int index, ObjectNode arguments) {
        return extras.checkEdit(permissions.requireNow(actor, Operation.DECIDE), runId, index, arguments);
    }

    @Override
    public Optional<ObjectNode> argumentSchema(Actor actor, String tool) {
        permissions.requireNow(actor, Operation.VIEW_INBOX);
        return extras.argumentSchema(tool);
    }

    @Override
    public DecisionResult submitInput(Actor actor, String runId, String digest, ObjectNode values) {
        Decision decision = Decision.input(runId, actor.name(), clock.instant(), digest, values);
        return decisions.decide(actor, decision, null, DecisionPipeline.LastStage.HERE);
    }

    /** The path every decision on a card takes, for the other entries to it (a worker's queue, the worker). */
    DecisionPipeline decisions() {
        return decisions;
    }

    /**
     * Start-up recovery, without a role check (it is the process's own, not a person's request): reconciles the
     * runs that stopped processes left running, and carries out again every committed decision none of whose
     * calls had started. Runs with a call whose outcome is unknown are flagged and left for a person; a first
     * stretch that never paused fails as {@code interrupted}. Resuming calls the runs' models.
     */
    public List<Resumption> resumeInterrupted() {
        return decisions.claimed().resumeInterrupted();
    }

    @Override
    public RunTimeline timeline(Actor actor, String runId) {
        permissions.requireNow(actor, Operation.VIEW_TIMELINE);
        return timelines.of(runs.find(runId).orElseThrow(() -> new IllegalArgumentException("no run has the id \""
                + runId + "\"")));
    }

    @Override
    public AutoCloseable onChange(Runnable listener) {
        return changes.apply(listener);
    }
}
