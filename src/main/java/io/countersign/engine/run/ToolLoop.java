package io.countersign.engine.run;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.access.ToolAccessPolicy;
import io.countersign.engine.access.ToolApprovalRule;
import io.countersign.engine.access.UnattendedToolFilter;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.call.InvocationVerdict;
import io.countersign.engine.call.ToolExecutionContext;
import io.countersign.engine.call.ToolInvocationHistory;
import io.countersign.engine.chat.ChatMessage;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.tool.ToolSettings;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.intent.IntentRouting;
import io.countersign.engine.intent.RoleModelResolver;
import io.countersign.engine.intent.ToolCallDispatchHook;
import io.countersign.engine.invocation.ApprovalAsks;
import io.countersign.engine.invocation.InvocationRules;
import io.countersign.engine.invocation.PreApprovalInvocationPolicy;
import io.countersign.engine.invocation.ToolInvocationPolicy;
import io.countersign.engine.port.ChatModel;
import io.countersign.engine.port.DecisionStart;
import io.countersign.engine.port.EventSink;
import io.countersign.engine.port.ExecutionJournal;
import io.countersign.engine.port.IdGenerator;
import io.countersign.engine.port.RunTelemetry;
import io.countersign.engine.port.StandingGrants;
import io.countersign.engine.port.StretchStart;
import io.countersign.engine.port.ToolSettingsSource;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.PendingCall;
import io.countersign.engine.state.RunCounters;
import io.countersign.engine.state.RunOptions;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.state.RunStateException;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.tool.InputPrompts;
import io.countersign.engine.tool.SchemaValidator;
import io.countersign.engine.tool.ToolRegistry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The embedded tool loop. One round: choose the model, send the transcript and the offered tools, and if the
 * model asks for calls, append its turn, scan it for approval (the whole turn pauses if any offered call needs
 * one), then for typed input, then execute each call in order through the access gates and the invocation
 * rules. A pause is a {@link RunOutcome} with the state to resume from, possibly in another process; a resume
 * finishes the paused turn with the person's answer and runs on as any other turn.
 */
public final class ToolLoop {
    /** Arguments larger than this are refused before any rule or tool sees them. */
    public static final int MAX_ARGUMENT_BYTES = 100_000;

    private final ToolAccessPolicy accessPolicy;
    private final OfferedTools offeredTools;
    private final LoopEvents events;
    private final PauseScan pauseScan;
    private final Rounds rounds;
    private final RoleModelResolver roleModelResolver;
    private final ToolCallDispatchHook dispatchHook;
    private final ArgumentEdits edits;
    private final SchemaValidator schemas;
    private final RunTelemetry telemetry;

    private ToolLoop(Builder builder) {
        this.schemas = builder.schemas;
        this.telemetry = builder.telemetry;
        EventSink sink = telemetry == RunTelemetry.NONE ? builder.events : event -> {
            builder.events.record(event);
            telemetry.recorded(event);
        };
        this.events = new LoopEvents(sink, builder.clock, builder.ids);
        this.accessPolicy = new ToolAccessPolicy(builder.registry, builder.settings, sink, builder.clock,
                builder.ids);
        ToolApprovalRule approvalRule = new ToolApprovalRule(builder.settings);
        this.offeredTools = new OfferedTools(builder.registry, accessPolicy,
                new UnattendedToolFilter(builder.registry, approvalRule));
        this.pauseScan = new PauseScan(builder.registry, approvalRule, builder.preApprovalPolicy, builder.asks,
                builder.grants, events);
        CallExecution execution = new CallExecution(builder.registry, accessPolicy, approvalRule, builder.asks,
                builder.invocationPolicy, builder.cancellation, events, builder.prompts, builder.results,
                builder.callers, builder.schemas);
        this.rounds = new Rounds(builder.registry, builder.chatModel, builder.cancellation, pauseScan, execution);
        this.roleModelResolver = builder.roleModelResolver;
        this.dispatchHook = builder.dispatchHook;
        this.edits = new ArgumentEdits(builder.registry, builder.preApprovalPolicy, pauseScan, builder.schemas);
    }

    public static Builder builder(ToolRegistry registry, ChatModel chatModel) {
        return new Builder(registry, chatModel);
    }

    /** The validator this loop checks arguments, edits and typed input with, for callers that check them first. */
    public SchemaValidator schemas() {
        return schemas;
    }

    /** Where this loop's stretches are traced, for the callers that end a run's wait. */
    public RunTelemetry telemetry() {
        return telemetry;
    }

    /** The access policy this loop applies, for callers that show or explain the offered set. */
    public ToolAccessPolicy accessPolicy() {
        return accessPolicy;
    }

    /** Starts a run and drives it until it completes, pauses, fails or is cancelled, journalling nothing. */
    public RunOutcome runLoop(RunRequest request) {
        return runLoop(request, ExecutionJournal.NONE);
    }

    /**
     * Starts a run and drives it until it completes, pauses, fails or is cancelled, each call journalled.
     *
     * @throws io.countersign.engine.port.RunTakenOverException when the journal's driver lost the run on the way
     */
    public RunOutcome runLoop(RunRequest request, ExecutionJournal journal) {
        AgentConfiguration configuration = request.configuration();
        List<ChatMessage> transcript = new ArrayList<>();
        if (!request.skipAssembly() && !configuration.systemPrompt().isBlank()) {
            transcript.add(ChatMessage.system(configuration.systemPrompt()));
        }
        transcript.addAll(request.messages());
        ToolExecutionContext context = request.context();
        ToolInvocationHistory history;
        if (!request.skipAssembly() && request.seeds().isZero()) {
            history = ToolInvocationHistory.emptyComplete();
        } else if (context.initialInvocationHistory() != null) {
            history = context.initialInvocationHistory();
        } else {
            history = ToolInvocationHistory.incomplete(List.of());
        }
        RunSegment run = segment(configuration, context, transcript, history, request.seeds(), request.options());
        run.journalUnder(journal, List.of());
        return traced(run, false, rounds::drive);
    }

    /** Drives the stretch as one traced stretch of its run, which ends with the outcome or the error. */
    private RunOutcome traced(RunSegment run, boolean resumed, Function<RunSegment, RunOutcome> stretch) {
        run.trace = telemetry.stretch(new StretchStart(run.runId, run.configuration.name(), resumed));
        RunStatus status = null;
        try {
            RunOutcome outcome = stretch.apply(run);
            status = outcome.status();
            return outcome;
        } finally {
            run.trace.ended(status);
        }
    }

    /**
     * Resumes an approval pause with a verdict per waiting call, recording the decision's event and journalling
     * nothing: {@link #prepareApproval} and {@link PreparedResume.Ready#carryOut} in one go.
     */
    public RunOutcome resumeApproval(PausedState state, AgentConfiguration configuration,
                                     Decision.Approval decision) {
        return resumed(prepareApproval(state, configuration, decision));
    }

    /**
     * Resumes an input pause with a person's values, recording the decision's event and journalling nothing:
     * {@link #prepareInput} and {@link PreparedResume.Ready#carryOut} in one go.
     */
    public RunOutcome resumeInput(PausedState state, AgentConfiguration configuration, Decision.Input decision) {
        return resumed(prepareInput(state, configuration, decision));
    }

    private RunOutcome resumed(PreparedResume prepared) {
        if (prepared instanceof PreparedResume.PreviewsChanged stale) {
            return stale.outcome();
        }
        PreparedResume.Ready ready = (PreparedResume.Ready) prepared;
        events.sink().record(ready.start().decisionEvent());
        return ready.carryOut(ExecutionJournal.NONE);
    }

    /**
     * Prepares an approval pause's resume with a verdict per waiting call; nothing is recorded or executed yet. If
     * an approved call's preview changed since the pause, the answer is {@link PreparedResume.PreviewsChanged}: the
     * run pauses again with those calls marked stale.
     *
     * @throws RunStateException when the state is not an approval pause of this agent, or the verdicts do not
     *                           fit its waiting calls
     */
    public PreparedResume prepareApproval(PausedState state, AgentConfiguration configuration,
                                          Decision.Approval decision) {
        requireResumable(state, configuration, RunStatus.WAITING_FOR_APPROVAL);
        PauseAnswer.Approval answer = PauseAnswer.Approval.of(state, decision);
        RunSegment run = resumed(state, configuration);
        AgentConfiguration roundConfiguration = run.configurationFor(state.model());
        List<String> offered = run.offered(roundConfiguration);
        for (Decision.CallVerdict verdict : decision.verdicts()) {
            if (verdict.edited() && !(edits.check(state, run, roundConfiguration, verdict.index(),
                    verdict.arguments()) instanceof EditCheck.Fits)) {
                throw new RunStateException("the edited arguments of call " + verdict.index() + " of run "
                        + state.runId() + " no longer pass the checks before approval; nothing was decided");
            }
        }
        Optional<List<PendingCall>> stale = pauseScan.recheckPreviews(state, answer, roundConfiguration,
                run.context);
        if (stale.isPresent()) {
            return new PreparedResume.PreviewsChanged(new RunOutcome.WaitingForApproval(state.toBuilder()
                    .calls(stale.get()).offeredTools(offered).build()));
        }
        GovernanceEvent event = events.event(EventType.APPROVAL_DECIDED, null, null, null, run, roundConfiguration,
                decision.decidedBy(), answer.summary());
        return ready(run, roundConfiguration, offered, state, answer, event);
    }

    /**
     * Checks a person's arguments for a waiting call of an approval pause, as they would be checked when decided:
     * size, the tool's schema, the pre-approval rules; with the preview taken again for them. Nothing is recorded.
     *
     * @throws RunStateException when the state is not an approval pause of this agent
     */
    public EditCheck checkEdit(PausedState state, AgentConfiguration configuration, int index,
                               ObjectNode arguments) {
        requireResumable(state, configuration, RunStatus.WAITING_FOR_APPROVAL);
        RunSegment run = resumed(state, configuration);
        return edits.check(state, run, run.configurationFor(state.model()), index, arguments);
    }

    /**
     * Prepares an input pause's resume with a person's values; nothing is recorded or executed yet. The values are
     * checked against the input tool's fields first; the person's values replace the model's for the declared
     * fields only.
     *
     * @throws InvalidInputException when the values do not fit the fields
     * @throws RunStateException     when the state is not an input pause of this agent
     */
    public PreparedResume prepareInput(PausedState state, AgentConfiguration configuration,
                                       Decision.Input decision) {
        requireResumable(state, configuration, RunStatus.WAITING_FOR_INPUT);
        PauseAnswer.Input answer = PauseAnswer.Input.of(state, decision, schemas);
        RunSegment run = resumed(state, configuration);
        AgentConfiguration roundConfiguration = run.configurationFor(state.model());
        List<String> offered = run.offered(roundConfiguration);
        GovernanceEvent event = events.event(EventType.INPUT_SUBMITTED, null, state.inputCall().call().name(), null,
                run, roundConfiguration, decision.decidedBy(), null);
        return ready(run, roundConfiguration, offered, state, answer, event);
    }

    private PreparedResume ready(RunSegment run, AgentConfiguration roundConfiguration, List<String> offered,
                                 PausedState state, PauseAnswer answer, GovernanceEvent event) {
        DecisionStart start = new DecisionStart(event, PreparedResume.intents(state.calls(), answer));
        return new PreparedResume.Ready(start, run, segment -> traced(segment, true,
                resumed -> rounds.resume(resumed, roundConfiguration, offered, state.calls(), answer)));
    }

    private static void requireResumable(PausedState state, AgentConfiguration configuration, RunStatus expected) {
        if (state.status() != expected) {
            throw new RunStateException("run " + state.runId() + " is " + state.status().code() + ", not "
                    + expected.code());
        }
        if (!state.agentConfiguration().equals(configuration.name())) {
            throw new RunStateException("run " + state.runId() + " belongs to agent \"" + state.agentConfiguration()
                    + "\", not \"" + configuration.name() + "\"");
        }
    }

    private RunSegment resumed(PausedState state, AgentConfiguration configuration) {
        return segment(configuration, state.executionContext(), state.transcript(), state.history(),
                state.counters(), state.options());
    }

    private RunSegment segment(AgentConfiguration configuration, ToolExecutionContext context,
                               List<ChatMessage> transcript, ToolInvocationHistory history, RunCounters counters,
                               RunOptions options) {
        IntentRouting routing = configuration.toolCallPolicies().isEmpty() && roleModelResolver == null
                && dispatchHook == null ? null
                : IntentRouting.of(configuration.toolCallPolicies(), roleModelResolver, dispatchHook);
        return new RunSegment(configuration, context, transcript, history, counters, options, offeredTools,
                routing);
    }

    /** Assembles a loop; everything but the registry and the model has a working default. */
    public static final class Builder {
        private final ToolRegistry registry;
        private final ChatModel chatModel;
        private ToolSettingsSource settings = ToolSettingsSource.fixed(ToolSettings.defaults());
        private ToolInvocationPolicy invocationPolicy = context -> InvocationVerdict.allowed(null);
        private PreApprovalInvocationPolicy preApprovalPolicy = context -> InvocationVerdict.allowed(null);
        private ApprovalAsks asks = ApprovalAsks.NONE;
        private EventSink events = event -> { };
        private Clock clock = Clock.systemUTC();
        private IdGenerator ids = IdGenerator.random();
        private RunCancellation cancellation = RunCancellation.NEVER;
        private RoleModelResolver roleModelResolver;
        private ToolCallDispatchHook dispatchHook;
        private InputPrompts prompts = InputPrompts.DECLINE;
        private StandingGrants grants = StandingGrants.NONE;
        private ToolResultListener results = ToolResultListener.NONE;
        private CallerChannels callers = CallerChannels.NONE;
        private SchemaValidator schemas;
        private RunTelemetry telemetry = RunTelemetry.NONE;

        private Builder(ToolRegistry registry, ChatModel chatModel) {
            this.registry = Objects.requireNonNull(registry, "registry");
            this.chatModel = Objects.requireNonNull(chatModel, "chatModel");
        }

        public Builder settings(ToolSettingsSource source) {
            this.settings = Objects.requireNonNull(source);
            return this;
        }

        public Builder invocationPolicies(ToolInvocationPolicy invocation, PreApprovalInvocationPolicy preApproval) {
            this.invocationPolicy = Objects.requireNonNull(invocation);
            this.preApprovalPolicy = Objects.requireNonNull(preApproval);
            return this;
        }

        /**
         * The invocation rules' policies and their asks for a person ({@link InvocationRules#approvalAsks}): a call
         * a declarative rule asks about pauses for approval like an approval-bound one.
         */
        public Builder invocationRules(InvocationRules rules) {
            invocationPolicies(rules.invocationPolicy(), rules.preApprovalPolicy());
            return approvalAsks(rules.approvalAsks());
        }

        /** Who may ask for a person on a call whose tool runs without one; by default nobody. */
        public Builder approvalAsks(ApprovalAsks value) {
            this.asks = Objects.requireNonNull(value);
            return this;
        }

        public Builder events(EventSink sink) {
            this.events = Objects.requireNonNull(sink);
            return this;
        }

        public Builder clock(Clock value) {
            this.clock = Objects.requireNonNull(value);
            return this;
        }

        public Builder ids(IdGenerator value) {
            this.ids = Objects.requireNonNull(value);
            return this;
        }

        public Builder cancellation(RunCancellation value) {
            this.cancellation = Objects.requireNonNull(value);
            return this;
        }

        /** The raw PRE-model seam, asked when no intent policy chooses the model. */
        public Builder roleModelResolver(RoleModelResolver value) {
            this.roleModelResolver = value;
            return this;
        }

        /** The raw POST-model seam, which sees each call after the intent policies and may override it. */
        public Builder dispatchHook(ToolCallDispatchHook value) {
            this.dispatchHook = value;
            return this;
        }

        /** Whom a tool may ask for typed input during a call of an attended run; by default no one. */
        public Builder inputPrompts(InputPrompts value) {
            this.prompts = Objects.requireNonNull(value);
            return this;
        }

        /** The standing grants the approval scan consults; by default none, so every such call pauses. */
        public Builder grants(StandingGrants value) {
            this.grants = Objects.requireNonNull(value);
            return this;
        }

        /** Who is told of each executed call's whole result; by default no one. */
        public Builder resultListener(ToolResultListener value) {
            this.results = Objects.requireNonNull(value);
            return this;
        }

        /** The way back to each call's caller while it executes; by default none. */
        public Builder callers(CallerChannels value) {
            this.callers = Objects.requireNonNull(value);
            return this;
        }

        /** The JSON Schema validator for the model's arguments, a person's edits and typed input; required. */
        public Builder schemas(SchemaValidator value) {
            this.schemas = Objects.requireNonNull(value);
            return this;
        }

        /** Where each stretch's trace and the loop's events go for measuring; by default nowhere. */
        public Builder telemetry(RunTelemetry value) {
            this.telemetry = Objects.requireNonNull(value);
            return this;
        }

        public ToolLoop build() {
            Objects.requireNonNull(schemas, "a tool loop needs a schema validator (Builder.schemas)");
            return new ToolLoop(this);
        }
    }
}
