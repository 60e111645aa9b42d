package io.countersign.service;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Actor;
import io.countersign.engine.event.DecisionRecord;
import io.countersign.engine.invocation.InvocationRules;
import io.countersign.engine.invocation.ToolExecutionContext;
import io.countersign.engine.port.ChatModel;
import io.countersign.engine.port.IdGenerator;
import io.countersign.engine.port.RunLease;
import io.countersign.engine.port.RunRepository;
import io.countersign.engine.port.ServerRecords;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.run.AgentConfiguration;
import io.countersign.engine.run.ApprovalDecision;
import io.countersign.engine.run.InputSubmission;
import io.countersign.engine.run.PausedState;
import io.countersign.engine.run.PreparedResume;
import io.countersign.engine.run.RunOptions;
import io.countersign.engine.run.RunOutcome;
import io.countersign.engine.run.RunRequest;
import io.countersign.engine.run.RunStateException;
import io.countersign.engine.run.RunStatus;
import io.countersign.engine.run.ToolLoop;
import io.countersign.engine.run.WaitingRunSummary;
import io.countersign.engine.tool.InvalidInputException;
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
    private final Function<Runnable, AutoCloseable> changes;
    private final Clock clock;
    private final IdGenerator ids;
    private final Locale locale;
    private final RunCards cards;
    private final RunTimelines timelines;
    private final DecisionChecks checks;
    private final DecisionServers servers;

    /**
     * @param changes     subscribes a listener to run and decision changes and returns the subscription
     * @param servers     the MCP server records, which tell a remote call's tool without a connection
     * @param connections connects the servers a decision's calls need before they run
     * @param locale      the locale of the people behind runs started here, for rule explanations
     */
    public DefaultRunService(RunRepository runs, AgentDirectory agents, ToolLoop loop, ToolRegistry registry,
                             EventStore events, Function<Runnable, AutoCloseable> changes, ServerRecords servers,
                             ServerConnections connections, Clock clock, IdGenerator ids, Locale locale) {
        this.runs = Objects.requireNonNull(runs, "runs");
        this.agents = Objects.requireNonNull(agents, "agents");
        this.loop = Objects.requireNonNull(loop, "loop");
        this.changes = Objects.requireNonNull(changes, "changes");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.ids = Objects.requireNonNull(ids, "ids");
        this.locale = Objects.requireNonNull(locale, "locale");
        this.servers = new DecisionServers(Objects.requireNonNull(registry, "registry"),
                Objects.requireNonNull(servers, "servers"), Objects.requireNonNull(connections, "connections"));
        this.cards = new RunCards(this.servers, agents);
        this.timelines = new RunTimelines(events, registry);
        this.checks = new DecisionChecks(runs, agents, loop.accessPolicy(), Objects.requireNonNull(servers, "servers"),
                clock);
    }

    /**
     * The service over one store, wired as every process runs it: a tool loop on the given tools and model that
     * reads the store's tool settings, records governance events in it and journals each call's execution there,
     * and the store's runs, agents and change feed behind the use cases. It connects no MCP server: a decided
     * remote call is left to a process that does ({@link #overStore(Store, ToolRegistry, ChatModel,
     * InvocationRules, ServerConnections, Clock, IdGenerator, Locale)}).
     */
    public static DefaultRunService overStore(Store store, ToolRegistry registry, ChatModel model,
                                              InvocationRules rules, Clock clock, IdGenerator ids, Locale locale) {
        return overStore(store, registry, model, rules, ServerConnections.NONE, clock, ids, locale);
    }

    /**
     * As {@link #overStore(Store, ToolRegistry, ChatModel, InvocationRules, Clock, IdGenerator, Locale)}, with the
     * MCP servers this process connects for the calls of decisions.
     */
    public static DefaultRunService overStore(Store store, ToolRegistry registry, ChatModel model,
                                              InvocationRules rules, ServerConnections connections, Clock clock,
                                              IdGenerator ids, Locale locale) {
        ToolLoop loop = ToolLoop.builder(registry, model)
                .settings(store.settings())
                .invocationPolicies(rules.invocationPolicy(), rules.preApprovalPolicy())
                .events(store.events())
                .clock(clock)
                .ids(ids)
                .build();
        return new DefaultRunService(store.runs(), new AgentDirectory(store.configurations()), loop, registry,
                store.events(), listener -> store.changes().subscribe(kind -> {
                    if (kind == ChangeKind.RUN || kind == ChangeKind.DECISION) {
                        listener.run();
                    }
                }), store.servers(), connections, clock, ids, locale);
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
        RunLease lease = runs.create(runId, configuration.name(), actor.name(), prompt, unattended, clock.instant());
        return firstStretch(configuration, actor, lease, prompt, unattended);
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
        Permissions.require(actor, Operation.VIEW_INBOX);
        ToolFacts facts = servers.facts();
        return runs.waitingSummaries().stream().map(run -> waitingRun(run, facts)).toList();
    }

    private WaitingRun waitingRun(WaitingRunSummary run, ToolFacts facts) {
        if (run.damage() != null) {
            return WaitingRun.damaged(run.runId(), run.status(), run.agent(), run.initiator(), run.waitingSince(),
                    run.prompt(), run.damage());
        }
        boolean hasWrite = run.waitingTools().stream().anyMatch(tool -> facts.effect(tool) == ToolEffect.WRITE);
        boolean hasRemote = run.waitingTools().stream().anyMatch(facts::remote);
        return new WaitingRun(run.runId(), run.status(), run.agent(), run.initiator(), run.waitingSince(),
                run.prompt(), run.waitingTools().get(0),
                run.status() == RunStatus.WAITING_FOR_APPROVAL ? run.waitingTools().size() : 0, run.refusedCount(),
                hasWrite, hasRemote, run.digest());
    }

    @Override
    public List<DecidedRun> waitingForServers(Actor actor) {
        Permissions.require(actor, Operation.VIEW_INBOX);
        return runs.handedBack().stream().map(run -> {
            DecisionRecord decision = run.lastDecision();
            return new DecidedRun(run.runId(), run.agent(), run.initiator(), decision.decidedBy(),
                    decision.decidedAt(), decision.kind() == DecisionRecord.Kind.APPROVAL, decision.summary(),
                    servers.neededNames(run.pausedState(), decision));
        }).toList();
    }

    @Override
    public List<RunSummary> recent(Actor actor, int limit) {
        Permissions.require(actor, Operation.VIEW_TIMELINE);
        return runs.recent(limit).stream().map(run -> new RunSummary(run.runId(), run.agent(), run.initiator(),
                run.status(), run.createdAt(), run.updatedAt(), run.prompt(), run.failureReason(),
                run.outcomeUnknown(), run.damage())).toList();
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

    /**
     * Connects the servers the decided calls need, checks the decision (the approver's rights on those calls'
     * tools too), prepares its resume, and commits it with this process's claim together with everything written
     * ahead of its calls (its event, their intents); then carries it out here.
     */
    private DecisionResult decideHere(Actor decider, String runId, String digest, CardAnswer answer) {
        DecisionChecks.Checked checked = check(decider, runId, digest, answer);
        if (!(checked instanceof DecisionChecks.Checked.Claimable ready)) {
            return ((DecisionChecks.Checked.Refused) checked).result();
        }
        DecisionRecord decision = ready.decision();
        PreparedResume prepared;
        try {
            prepared = prepare(ready.run().pausedState(), ready.configuration(), decider, decision);
        } catch (InvalidInputException e) {
            return new DecisionResult.InvalidInput(runId, e.errors());
        }
        if (prepared instanceof PreparedResume.Stale stale) {
            // The decision is claimed and put back with the changed card, so that every decider sees it changed.
            RunRepository.ClaimResult claim = runs.claim(decision);
            if (claim instanceof RunRepository.ClaimResult.Claimed claimed) {
                return putBackStale(claimed.run().lease(), stale);
            }
            return DecisionChecks.refusedClaim(runId, claim);
        }
        PreparedResume.Ready resume = (PreparedResume.Ready) prepared;
        RunRepository.ClaimResult claim = runs.claim(decision, resume.start());
        if (claim instanceof RunRepository.ClaimResult.Claimed claimed) {
            return carryOut(claimed.run(), decision, resume);
        }
        return DecisionChecks.refusedClaim(runId, claim);
    }

    /** The servers of the calls the answer lets run, connected here; those that did not connect, in name order. */
    private List<String> connectServers(String runId, CardAnswer answer) {
        return runs.find(runId).filter(run -> run.status().waiting() && run.pausedState() != null)
                .map(run -> servers.missing(runId, servers.needed(run.pausedState(), answer.kind(),
                        answer.verdicts())))
                .orElse(List.of());
    }

    /**
     * The checks of a decision, for whoever claims it next (this process, or the queue of a worker), once the
     * servers of the calls it lets run are connected here: the approver's rights on their tools are checked on the
     * tools themselves, and a server that does not connect refuses the decision with the card still waiting.
     */
    DecisionChecks.Checked check(Actor decider, String runId, String digest, CardAnswer answer) {
        List<String> notConnected = connectServers(runId, answer);
        if (!notConnected.isEmpty()) {
            return new DecisionChecks.Checked.Refused(new DecisionResult.ServersNotConnected(runId, notConnected));
        }
        return checks.check(decider, runId, digest, answer);
    }

    /** The decision applied to the pause, nothing written yet; the approved calls run as the run owner. */
    private PreparedResume prepare(PausedState state, AgentConfiguration configuration, Actor decider,
                                   DecisionRecord decision) {
        return switch (decision.kind()) {
            case APPROVAL -> loop.prepareApproval(state, configuration,
                    new ApprovalDecision(decider, decision.verdicts()));
            case INPUT -> loop.prepareInput(state, configuration, new InputSubmission(decider, decision.input()));
        };
    }

    /**
     * Carries out the committed decision of a run claimed before (by a worker's queue, or before a restart): its
     * start is committed now, under the run's lease; {@code decider} is who decided.
     */
    private DecisionResult resumeClaimed(StoredRun run, AgentConfiguration configuration, Actor decider,
                                         DecisionRecord decision) {
        List<String> missing = servers.missing(run.runId(), servers.needed(run.pausedState(), decision));
        if (!missing.isEmpty()) {
            // Without its tools an approved call would become a refusal: the decision waits for a process that
            // can connect them, and nothing runs here.
            runs.handBack(run.lease(), clock.instant());
            return DecisionChecks.waitingForServers(run.runId(), decision, missing);
        }
        RunLease lease = run.lease();
        PreparedResume prepared;
        try {
            prepared = prepare(run.pausedState(), configuration, decider, decision);
        } catch (InvalidInputException e) {
            runs.release(lease, run.pausedState(), clock.instant());
            return new DecisionResult.InvalidInput(run.runId(), e.errors());
        } catch (RunStateException e) {
            runs.release(lease, run.pausedState(), clock.instant());
            throw e;
        }
        if (prepared instanceof PreparedResume.Stale stale) {
            return putBackStale(lease, stale);
        }
        PreparedResume.Ready resume = (PreparedResume.Ready) prepared;
        runs.begin(lease, resume.start());
        return carryOut(run, decision, resume);
    }

    /** A preview changed since the card was shown: nothing ran, the person must look again. */
    private DecisionResult putBackStale(RunLease lease, PreparedResume.Stale stale) {
        runs.release(lease, stale.outcome().state(), clock.instant());
        return new DecisionResult.Stale(lease.runId(), stale.outcome().state().digest());
    }

    /**
     * Runs the decided calls and what follows under the claimed run's lease, and records where the run stands. A
     * write the lease no longer allows stops it on the spot ({@link io.countersign.engine.port.RunTakenOverException}).
     */
    private DecisionResult carryOut(StoredRun claimed, DecisionRecord decision, PreparedResume.Ready resume) {
        RunLease lease = claimed.lease();
        RunOutcome outcome = resume.carryOut(runs.journal(lease));
        runs.recordOutcome(lease, outcome, clock.instant());
        return DecisionChecks.done(claimed.runId(), outcome.status(), decision,
                ResumedCalls.failed(claimed.pausedState(), decision, outcome));
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
     * decider's own process would have: the approved calls run under the run owner's identity.
     *
     * @param decider the person who decided, with their roles as the store knows them now
     */
    DecisionResult resumeDecided(StoredRun claimed, Actor decider) {
        return resumeClaimed(claimed, agents.get(claimed.agent()), decider, claimed.lastDecision());
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
            runs.release(run.lease(), run.pausedState(), clock.instant());
            return new Resumption.NotCarriedOut(run.runId(), decision.decidedBy(), e.getMessage(), true);
        }
        // The decider's roles were checked when the decision was taken; carrying it out needs only their name.
        Actor decider = new Actor(decision.decidedBy(), Set.of());
        try {
            DecisionResult result = resumeClaimed(run, configuration, decider, decision);
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
