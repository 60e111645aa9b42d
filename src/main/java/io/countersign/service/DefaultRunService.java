package io.countersign.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Actor;
import io.countersign.engine.AgentConfiguration;
import io.countersign.engine.ApprovalDecision;
import io.countersign.engine.ChatMessage;
import io.countersign.engine.DataClass;
import io.countersign.engine.DecisionRecord;
import io.countersign.engine.GovernanceEvent;
import io.countersign.engine.IdGenerator;
import io.countersign.engine.InputField;
import io.countersign.engine.InputSubmission;
import io.countersign.engine.InputValidation;
import io.countersign.engine.InvalidInputException;
import io.countersign.engine.Json;
import io.countersign.engine.PausedState;
import io.countersign.engine.PendingCall;
import io.countersign.engine.RemoteTool;
import io.countersign.engine.RunOptions;
import io.countersign.engine.RunOutcome;
import io.countersign.engine.RunRepository;
import io.countersign.engine.RunRequest;
import io.countersign.engine.RunStatus;
import io.countersign.engine.RunStateException;
import io.countersign.engine.StoredRun;
import io.countersign.engine.Tool;
import io.countersign.engine.ToolAccessDecision;
import io.countersign.engine.ToolApprovalRule;
import io.countersign.engine.ToolCall;
import io.countersign.engine.ToolEffect;
import io.countersign.engine.ToolExecutionContext;
import io.countersign.engine.ToolLoop;
import io.countersign.engine.ToolRegistry;
import io.countersign.engine.ToolSettings;
import io.countersign.engine.ChatModel;
import io.countersign.engine.InvocationRules;
import io.countersign.engine.WaitingRunSummary;
import io.countersign.store.ChangeKind;
import io.countersign.store.EventFilter;
import io.countersign.store.EventStore;
import io.countersign.store.PageRequest;
import io.countersign.store.Store;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The operator's use cases over the durable store and the tool loop. A decision is claimed and committed in the
 * store before the loop resumes, so two deciders never both win and a decision reported done is never lost.
 */
public final class DefaultRunService implements RunService {
    private static final int TIMELINE_EVENT_LIMIT = 1000;

    private final RunRepository runs;
    private final AgentDirectory agents;
    private final ToolLoop loop;
    private final ToolRegistry registry;
    private final EventStore events;
    private final Function<Runnable, AutoCloseable> changes;
    private final Clock clock;
    private final IdGenerator ids;
    private final Locale locale;
    private final DecisionPath inline;

    /**
     * @param changes subscribes a listener to run and decision changes and returns the subscription
     * @param locale  the locale of the people behind runs started here, for rule explanations
     */
    public DefaultRunService(RunRepository runs, AgentDirectory agents, ToolLoop loop, ToolRegistry registry,
                             EventStore events, Function<Runnable, AutoCloseable> changes, Clock clock,
                             IdGenerator ids, Locale locale) {
        this.runs = Objects.requireNonNull(runs, "runs");
        this.agents = Objects.requireNonNull(agents, "agents");
        this.loop = Objects.requireNonNull(loop, "loop");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.events = Objects.requireNonNull(events, "events");
        this.changes = Objects.requireNonNull(changes, "changes");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.ids = Objects.requireNonNull(ids, "ids");
        this.locale = Objects.requireNonNull(locale, "locale");
        this.inline = new DecisionPath(runs::claim, true);
    }

    /**
     * Where a decision is carried out: {@code claim} commits it (for this process, or for a worker), and
     * {@code here} says whether this process then resumes the run.
     */
    record DecisionPath(Function<DecisionRecord, RunRepository.ClaimResult> claim, boolean here) {
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
                store.events(), listener -> store.changes().subscribe(kind -> {
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
                .map(run -> card(actor, run));
    }

    private RunCard card(Actor actor, StoredRun run) {
        PausedState state = run.pausedState();
        List<RunCard.PendingCallView> pending = state.awaitingApproval().stream().map(call -> {
            Optional<Tool> tool = tool(call);
            return new RunCard.PendingCallView(call.index(), call.call().name(), pretty(call.call().arguments()),
                    call.target(), call.preview() == null ? List.of() : call.preview().lines(),
                    // A tool that vanished since the pause is shown as the most cautious kind.
                    tool.map(Tool::effect).orElse(ToolEffect.WRITE), tool.map(t -> t instanceof RemoteTool)
                    .orElse(false), tool.map(Tool::dataClass).orElse(DataClass.SECRET_ADJACENT), call.stale());
        }).toList();
        List<RunCard.RefusedCallView> refused = state.refused().stream()
                .map(call -> new RunCard.RefusedCallView(call.index(), call.call().name(),
                        call.refusal().ruleIdentifier(), call.refusal().reasonCode(), call.refusal().explanation()))
                .toList();
        RunCard.InputRequest input = null;
        if (state.status() == RunStatus.WAITING_FOR_INPUT) {
            PendingCall call = state.inputCall();
            Map<String, String> guesses = new LinkedHashMap<>();
            ObjectNode arguments = call.call().arguments();
            for (InputField field : state.inputFields()) {
                JsonNode guess = arguments.get(field.name());
                if (guess != null && !guess.isNull()) {
                    guesses.put(field.name(), guess.isTextual() ? guess.asText() : guess.toString());
                }
            }
            input = new RunCard.InputRequest(call.index(), call.call().name(), state.inputFields(), guesses);
        }
        boolean fourEyes = agentConfiguration(run).map(AgentConfiguration::fourEyes).orElse(false);
        return new RunCard(run.runId(), run.status(), run.agent(), run.initiator(), run.waitingSince(), run.prompt(),
                state.lastAssistantMessage(), state.digest(), pending, refused, input,
                actor.name().equals(run.initiator()), fourEyes);
    }

    @Override
    public DecisionResult decide(Actor actor, String runId, String digest,
                                 List<ApprovalDecision.CallVerdict> verdicts) {
        return decide(actor, runId, digest, verdicts, inline);
    }

    /** Decides a card as {@link #decide}, committing the decision with the resumption's claim. */
    DecisionResult decide(Actor actor, String runId, String digest, List<ApprovalDecision.CallVerdict> verdicts,
                          DecisionPath resumption) {
        if (!Permissions.allows(actor, Operation.DECIDE)) {
            return new DecisionResult.NotPermitted(runId, Permissions.refusal(actor, Operation.DECIDE));
        }
        Optional<StoredRun> found = runs.find(runId);
        if (found.isEmpty()) {
            return new DecisionResult.NotWaiting(runId, null);
        }
        StoredRun run = found.get();
        Optional<DecisionResult> early = beforeClaim(run, digest, RunStatus.WAITING_FOR_APPROVAL);
        if (early.isPresent()) {
            return early.get();
        }
        PausedState state = run.pausedState();
        requireVerdictsFit(state, verdicts);
        AgentConfiguration configuration = agents.get(run.agent());
        boolean approvesAny = verdicts.stream().anyMatch(ApprovalDecision.CallVerdict::approved);
        if (approvesAny && configuration.fourEyes() && state.initiatingActor().name().equals(actor.name())) {
            return new DecisionResult.FourEyes(runId);
        }
        Optional<String> cannotRun = approvedCallTheApproverCannotRun(state, verdicts, configuration, actor);
        if (cannotRun.isPresent()) {
            return new DecisionResult.NotPermitted(runId, cannotRun.get());
        }
        DecisionRecord decision = DecisionRecord.approval(runId, actor.name(), clock.instant(), digest, verdicts);
        RunRepository.ClaimResult claim = resumption.claim().apply(decision);
        if (claim instanceof RunRepository.ClaimResult.Claimed claimed) {
            if (!resumption.here()) {
                int approved = (int) verdicts.stream().filter(ApprovalDecision.CallVerdict::approved).count();
                return new DecisionResult.Done(runId, claimed.run().status(), approved, verdicts.size() - approved);
            }
            return resumeApproval(claimed.run(), configuration, new ApprovalDecision(actor, verdicts), decision);
        }
        return refusedClaim(runId, claim);
    }

    private DecisionResult resumeApproval(StoredRun run, AgentConfiguration configuration, ApprovalDecision decision,
                                          DecisionRecord record) {
        PausedState state = run.pausedState();
        RunOutcome outcome;
        try {
            outcome = loop.resumeApproval(state, configuration, decision);
        } catch (RunStateException e) {
            runs.release(state, clock.instant());
            throw e;
        }
        if (outcome instanceof RunOutcome.WaitingForApproval again && samePause(state, again.state())) {
            // A preview changed since the card was shown: nothing ran, the person must look again.
            runs.release(again.state(), clock.instant());
            return new DecisionResult.Stale(run.runId(), again.state().digest());
        }
        runs.recordOutcome(outcome, clock.instant());
        long approved = decision.verdicts().stream().filter(ApprovalDecision.CallVerdict::approved).count();
        return new DecisionResult.Done(run.runId(), outcome.status(), (int) approved,
                (int) (record.verdicts().size() - approved));
    }

    @Override
    public DecisionResult submitInput(Actor actor, String runId, String digest, ObjectNode values) {
        return submitInput(actor, runId, digest, values, inline);
    }

    /** Submits typed input as {@link #submitInput}, committing the decision with the resumption's claim. */
    DecisionResult submitInput(Actor actor, String runId, String digest, ObjectNode values, DecisionPath resumption) {
        if (!Permissions.allows(actor, Operation.SUBMIT_INPUT)) {
            return new DecisionResult.NotPermitted(runId, Permissions.refusal(actor, Operation.SUBMIT_INPUT));
        }
        Optional<StoredRun> found = runs.find(runId);
        if (found.isEmpty()) {
            return new DecisionResult.NotWaiting(runId, null);
        }
        StoredRun run = found.get();
        Optional<DecisionResult> early = beforeClaim(run, digest, RunStatus.WAITING_FOR_INPUT);
        if (early.isPresent()) {
            return early.get();
        }
        PausedState state = run.pausedState();
        List<InputValidation.FieldError> errors = InputValidation.validate(state.inputFields(), values);
        if (!errors.isEmpty()) {
            return new DecisionResult.InvalidInput(runId, errors);
        }
        AgentConfiguration configuration = agents.get(run.agent());
        DecisionRecord decision = DecisionRecord.input(runId, actor.name(), clock.instant(), digest, values);
        RunRepository.ClaimResult claim = resumption.claim().apply(decision);
        if (claim instanceof RunRepository.ClaimResult.Claimed claimed) {
            if (!resumption.here()) {
                return new DecisionResult.Done(runId, claimed.run().status(), 0, 0);
            }
            return resumeInput(claimed.run(), configuration, new InputSubmission(actor, values));
        }
        return refusedClaim(runId, claim);
    }

    private DecisionResult resumeInput(StoredRun run, AgentConfiguration configuration, InputSubmission submission) {
        PausedState state = run.pausedState();
        RunOutcome outcome;
        try {
            outcome = loop.resumeInput(state, configuration, submission);
        } catch (InvalidInputException e) {
            runs.release(state, clock.instant());
            return new DecisionResult.InvalidInput(run.runId(), e.errors());
        } catch (RunStateException e) {
            runs.release(state, clock.instant());
            throw e;
        }
        runs.recordOutcome(outcome, clock.instant());
        return new DecisionResult.Done(run.runId(), outcome.status(), 0, 0);
    }

    /**
     * Carries out the committed decision of a run that a worker claimed ({@link StoredRun#lastDecision()}), as the
     * decider's own process would have: the approved calls run under the run owner's identity.
     *
     * @param decider the person who decided, with their roles as the store knows them now
     */
    DecisionResult resumeDecided(StoredRun claimed, Actor decider) {
        DecisionRecord record = claimed.lastDecision();
        AgentConfiguration configuration = agents.get(claimed.agent());
        if (record.kind() == DecisionRecord.Kind.APPROVAL) {
            return resumeApproval(claimed, configuration, new ApprovalDecision(decider, record.verdicts()), record);
        }
        return resumeInput(claimed, configuration, new InputSubmission(decider, record.input()));
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
            DecisionResult result = switch (decision.kind()) {
                case APPROVAL -> resumeApproval(run, configuration,
                        new ApprovalDecision(decider, decision.verdicts()), decision);
                case INPUT -> resumeInput(run, configuration, new InputSubmission(decider, decision.input()));
            };
            return new Resumption.CarriedOut(run.runId(), decision.decidedBy(), result);
        } catch (RunStateException e) {
            return new Resumption.NotCarriedOut(run.runId(), decision.decidedBy(), e.getMessage(), true);
        } catch (RuntimeException e) {
            return new Resumption.NotCarriedOut(run.runId(), decision.decidedBy(), e.getMessage(), false);
        }
    }

    /** The answers that need no claim: a finished or other-kind run, a decision someone else made, a stale card. */
    private Optional<DecisionResult> beforeClaim(StoredRun run, String digest, RunStatus expected) {
        if (run.status() != expected || run.pausedState() == null) {
            DecisionRecord last = run.lastDecision();
            if (last != null && last.digest().equals(digest)) {
                return Optional.of(alreadyDecided(last));
            }
            return Optional.of(new DecisionResult.NotWaiting(run.runId(), run.status()));
        }
        String current = run.pausedState().digest();
        if (!current.equals(digest)) {
            DecisionRecord last = run.lastDecision();
            if (last != null && last.digest().equals(digest)) {
                return Optional.of(alreadyDecided(last));
            }
            return Optional.of(new DecisionResult.Stale(run.runId(), current));
        }
        return Optional.empty();
    }

    private static DecisionResult refusedClaim(String runId, RunRepository.ClaimResult claim) {
        if (claim instanceof RunRepository.ClaimResult.Stale stale) {
            return new DecisionResult.Stale(runId, stale.currentDigest());
        }
        if (claim instanceof RunRepository.ClaimResult.AlreadyDecided decided) {
            return alreadyDecided(decided.winner());
        }
        return new DecisionResult.NotWaiting(runId, ((RunRepository.ClaimResult.NotWaiting) claim).status());
    }

    private static DecisionResult alreadyDecided(DecisionRecord winner) {
        return new DecisionResult.AlreadyDecided(winner.runId(), winner.decidedBy(), winner.decidedAt(),
                winner.summary());
    }

    private static void requireVerdictsFit(PausedState state, List<ApprovalDecision.CallVerdict> verdicts) {
        Set<Integer> waiting = state.awaitingApproval().stream().map(PendingCall::index).collect(Collectors.toSet());
        Set<Integer> given = verdicts.stream().map(ApprovalDecision.CallVerdict::index).collect(Collectors.toSet());
        if (given.size() != verdicts.size() || !given.equals(waiting)) {
            throw new IllegalArgumentException("a decision on run " + state.runId()
                    + " needs exactly one verdict for each waiting call " + waiting.stream().sorted().toList()
                    + ", got " + verdicts.stream().map(ApprovalDecision.CallVerdict::index).toList());
        }
    }

    /** The approver must be allowed to run every approved call themselves (gates under their own identity). */
    private Optional<String> approvedCallTheApproverCannotRun(PausedState state,
                                                              List<ApprovalDecision.CallVerdict> verdicts,
                                                              AgentConfiguration configuration, Actor approver) {
        AgentConfiguration round = configuration.model().equals(state.model()) ? configuration
                : configuration.withModel(state.model());
        for (ApprovalDecision.CallVerdict verdict : verdicts) {
            if (!verdict.approved()) {
                continue;
            }
            String toolName = state.calls().get(verdict.index()).call().name();
            ToolAccessDecision access = loop.accessPolicy().check(toolName, round, approver);
            if (!access.permitted()) {
                return Optional.of(approver.name() + " may not approve " + toolName + ": they could not run it"
                        + " themselves (" + access.denialReason().code() + ")");
            }
        }
        return Optional.empty();
    }

    private static boolean samePause(PausedState before, PausedState after) {
        return before.transcript().size() == after.transcript().size()
                && after.calls().stream().anyMatch(PendingCall::stale);
    }

    @Override
    public RunTimeline timeline(Actor actor, String runId) {
        Permissions.require(actor, Operation.VIEW_TIMELINE);
        StoredRun run = runs.find(runId).orElseThrow(() -> new IllegalArgumentException("no run has the id \""
                + runId + "\""));
        List<TimelineOrder.Step> steps = new ArrayList<>();
        List<ChatMessage> transcript = run.pausedState() != null ? run.pausedState().transcript() : run.transcript();
        int round = -1;
        for (int index = 0; index < transcript.size(); index++) {
            ChatMessage message = transcript.get(index);
            switch (message.role()) {
                case SYSTEM -> steps.add(new TimelineOrder.Step(new RunTimeline.Entry(RunTimeline.Kind.SYSTEM, null,
                        "System prompt", message.content()), round));
                case USER -> steps.add(new TimelineOrder.Step(new RunTimeline.Entry(RunTimeline.Kind.USER, null,
                        run.initiator(), message.content()), round));
                case ASSISTANT -> {
                    round = index;
                    if (!message.content().isBlank()) {
                        steps.add(new TimelineOrder.Step(new RunTimeline.Entry(RunTimeline.Kind.ASSISTANT, null,
                                "Model", message.content()), round));
                    }
                    for (ToolCall call : message.toolCalls()) {
                        steps.add(new TimelineOrder.Step(new RunTimeline.Entry(RunTimeline.Kind.TOOL_CALL, null,
                                call.name(), pretty(call.arguments())), round));
                    }
                }
                case TOOL -> steps.add(new TimelineOrder.Step(new RunTimeline.Entry(RunTimeline.Kind.TOOL_RESULT,
                        null, toolNameOf(transcript, message.toolCallId()), message.content()), round));
            }
        }
        List<GovernanceEvent> runEvents = new ArrayList<>(events.page(EventFilter.all().withRunId(runId),
                PageRequest.first(TIMELINE_EVENT_LIMIT)).events());
        java.util.Collections.reverse(runEvents);
        List<RunTimeline.Entry> entries = TimelineOrder.merge(steps, runEvents, event -> new RunTimeline.Entry(
                TimelineOrder.isDecision(event) ? RunTimeline.Kind.DECISION : RunTimeline.Kind.EVENT, event.time(),
                event.type().code() + (event.toolName() == null ? "" : " · " + event.toolName()), describe(event)),
                // the admin's settings of today may differ from the run's day; the built-in rule is near enough
                // to find the round an approval resumed
                name -> ToolApprovalRule.requiresApproval(registry.find(name).orElse(null), ToolSettings.defaults()));
        String failure = run.failureReason() == null ? null : run.failureReason() + ": " + run.failureMessage();
        return new RunTimeline(run.runId(), run.status(), run.agent(), run.initiator(), run.createdAt(), failure,
                entries);
    }

    private static String describe(GovernanceEvent event) {
        List<String> parts = new ArrayList<>();
        if (event.actor() != null) {
            parts.add("by " + event.actor());
        }
        if (event.ruleId() != null) {
            parts.add("rule " + event.ruleId());
        }
        if (event.reasonCode() != null) {
            parts.add("reason " + event.reasonCode());
        }
        if (event.detail() != null) {
            parts.add(event.detail());
        }
        return String.join(" · ", parts);
    }

    private static String toolNameOf(List<ChatMessage> transcript, String callId) {
        return transcript.stream().flatMap(m -> m.toolCalls().stream()).filter(c -> c.id().equals(callId))
                .map(ToolCall::name).findFirst().orElse("tool");
    }

    @Override
    public AutoCloseable onChange(Runnable listener) {
        return changes.apply(listener);
    }

    private Optional<Tool> tool(PendingCall call) {
        return registry.find(call.call().name());
    }

    private Optional<AgentConfiguration> agentConfiguration(StoredRun run) {
        try {
            return Optional.of(agents.get(run.agent()));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static String pretty(JsonNode node) {
        try {
            return Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(node);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return node.toString();
        }
    }
}
