package io.countersign.engine;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The embedded tool loop. One round: choose the model, send the transcript and the offered tools, and if the
 * model asks for calls, append its turn, scan it for approval (the whole turn pauses if any offered call needs
 * one), then for typed input, then execute each call in order through the access gates and the invocation
 * rules. A pause is a {@link RunOutcome} with the state to resume from, possibly in another process.
 */
public final class ToolLoop {
    /** Arguments larger than this are refused before any rule or tool sees them. */
    public static final int MAX_ARGUMENT_BYTES = 100_000;
    private static final Logger LOG = Logger.getLogger(ToolLoop.class.getName());

    private final ToolRegistry registry;
    private final ChatModel chatModel;
    private final ToolAccessPolicy accessPolicy;
    private final ToolApprovalRule approvalRule;
    private final UnattendedToolFilter unattendedFilter;
    private final ToolInvocationPolicy invocationPolicy;
    private final PreApprovalInvocationPolicy preApprovalPolicy;
    private final EventSink events;
    private final Clock clock;
    private final IdGenerator ids;
    private final ExecutionJournal journal;
    private final RunCancellation cancellation;
    private final RoleModelResolver roleModelResolver;
    private final ToolCallDispatchHook dispatchHook;

    private ToolLoop(Builder builder) {
        this.registry = builder.registry;
        this.chatModel = builder.chatModel;
        this.events = builder.events;
        this.clock = builder.clock;
        this.ids = builder.ids;
        this.accessPolicy = new ToolAccessPolicy(registry, builder.settings, events, clock, ids);
        this.approvalRule = new ToolApprovalRule(builder.settings);
        this.unattendedFilter = new UnattendedToolFilter(registry, approvalRule);
        this.invocationPolicy = builder.invocationPolicy;
        this.preApprovalPolicy = builder.preApprovalPolicy;
        this.journal = builder.journal;
        this.cancellation = builder.cancellation;
        this.roleModelResolver = builder.roleModelResolver;
        this.dispatchHook = builder.dispatchHook;
    }

    public static Builder builder(ToolRegistry registry, ChatModel chatModel) {
        return new Builder(registry, chatModel);
    }

    /** The access policy this loop applies, for callers that show or explain the offered set. */
    public ToolAccessPolicy accessPolicy() {
        return accessPolicy;
    }

    /** Starts a run and drives it until it completes, pauses, fails or is cancelled. */
    public RunOutcome runLoop(RunRequest request) {
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
        Segment run = new Segment(configuration, context, transcript, history, request.seeds(), request.options());
        return rounds(run);
    }

    /**
     * Resumes an approval pause with a verdict per waiting call. If an approved call's preview changed since the
     * pause, nothing executes and the run pauses again with those calls marked stale.
     *
     * @throws RunStateException when the state is not an approval pause of this agent, or the verdicts do not
     *                           fit its waiting calls; nothing executes
     */
    public RunOutcome resumeApproval(PausedState state, AgentConfiguration configuration, ApprovalDecision decision) {
        requireResumable(state, configuration, RunStatus.WAITING_FOR_APPROVAL);
        Map<Integer, ApprovalDecision.CallVerdict> verdicts = verdictsByIndex(state, decision);
        Segment run = resumed(state, configuration);
        AgentConfiguration roundConfiguration = run.configurationFor(state.model());
        List<String> offered = run.offered(roundConfiguration);

        boolean stale = false;
        List<PendingCall> rechecked = new ArrayList<>();
        for (PendingCall call : state.calls()) {
            ApprovalDecision.CallVerdict verdict = verdicts.get(call.index());
            if (verdict != null && verdict.approved()) {
                ToolPreview now = previewOf(call.call(), roundConfiguration, run.context).orElse(null);
                boolean changed = !Objects.equals(now, call.preview());
                stale |= changed;
                rechecked.add(call.withPreview(now, changed));
            } else {
                rechecked.add(call.withPreview(call.preview(), false));
            }
        }
        if (stale) {
            return new RunOutcome.WaitingForApproval(new PausedState(state.runId(), state.status(),
                    state.agentConfiguration(), state.model(), state.transcript(), rechecked, state.counters(),
                    offered, state.options(), state.inputFields(), state.history(), state.initiatingActor(),
                    state.actingUser(), state.locale()));
        }

        long approved = verdicts.values().stream().filter(ApprovalDecision.CallVerdict::approved).count();
        record(EventType.APPROVAL_DECIDED, null, null, null, run, roundConfiguration, decision.decidedBy().name(),
                "approved " + approved + ", denied " + (verdicts.size() - approved));
        for (PendingCall call : state.calls()) {
            if (cancellation.cancelled(run.runId)) {
                return run.cancelRemaining(state.calls().subList(call.index(), state.calls().size()));
            }
            String result = switch (call.disposition()) {
                case REFUSED -> run.settle(call, call.refusal().resultText());
                case AWAITS_APPROVAL -> verdicts.get(call.index()).approved()
                        ? execute(run, roundConfiguration, offered, call.call(), Grant.APPROVED)
                        : run.settle(call, declinedText(decision.decidedBy(), verdicts.get(call.index()).reason()));
                case RUNS_ON_RESUME -> execute(run, roundConfiguration, offered, call.call(), Grant.NONE);
                case AWAITS_INPUT -> throw new IllegalStateException("approval pause holds an input call");
            };
            run.transcript.add(ChatMessage.tool(call.call().id(), result));
        }
        return rounds(run);
    }

    /**
     * Resumes an input pause with a person's values. The values are checked against the input tool's fields
     * first; the person's values replace the model's for the declared fields only.
     *
     * @throws InvalidInputException when the values do not fit the fields; nothing executes and the run waits
     * @throws RunStateException     when the state is not an input pause of this agent
     */
    public RunOutcome resumeInput(PausedState state, AgentConfiguration configuration, InputSubmission submission) {
        requireResumable(state, configuration, RunStatus.WAITING_FOR_INPUT);
        List<InputValidation.FieldError> errors = InputValidation.validate(state.inputFields(), submission.values());
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
        Segment run = resumed(state, configuration);
        AgentConfiguration roundConfiguration = run.configurationFor(state.model());
        List<String> offered = run.offered(roundConfiguration);
        record(EventType.INPUT_SUBMITTED, null, state.inputCall().call().name(), null, run, roundConfiguration,
                submission.submittedBy().name(), null);
        for (PendingCall call : state.calls()) {
            if (cancellation.cancelled(run.runId)) {
                return run.cancelRemaining(state.calls().subList(call.index(), state.calls().size()));
            }
            String result = switch (call.disposition()) {
                case REFUSED -> run.settle(call, call.refusal().resultText());
                case AWAITS_INPUT -> {
                    ObjectNode arguments = InputValidation.overlay(call.call().arguments(), state.inputFields(),
                            submission.values());
                    yield execute(run, roundConfiguration, offered, call.call().withTarget(call.call().name(),
                            arguments), Grant.INPUT);
                }
                case RUNS_ON_RESUME -> execute(run, roundConfiguration, offered, call.call(), Grant.NONE);
                case AWAITS_APPROVAL -> throw new IllegalStateException("input pause holds an approval call");
            };
            run.transcript.add(ChatMessage.tool(call.call().id(), result));
        }
        return rounds(run);
    }

    private RunOutcome rounds(Segment run) {
        while (true) {
            if (cancellation.cancelled(run.runId)) {
                return run.cancelled();
            }
            if (run.counters.iterations() >= run.configuration.maxRounds()) {
                return lastAnswer(run);
            }
            ModelConfiguration model = run.chooseModel();
            AgentConfiguration roundConfiguration = model.equals(run.configuration.model())
                    ? run.configuration : run.configuration.withModel(model);
            List<String> offered = run.offered(roundConfiguration);
            AssistantTurn turn;
            try {
                turn = chatModel.complete(new ChatRequest(model, run.transcript, specs(offered),
                        toolChoice(run.options, offered)));
            } catch (ModelException e) {
                return run.failed("provider_failed", e.getMessage());
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "model adapter failed for run {0}: {1}",
                        new Object[] {run.runId, e.getClass().getName()});
                return run.failed("provider_failed", "the model adapter failed unexpectedly ("
                        + e.getClass().getSimpleName() + ")");
            }
            run.counters = run.counters.afterRound(turn.usage());
            run.transcript.add(turn.toMessage());
            if (turn.toolCalls().isEmpty()) {
                return run.completed(turn.content(), false);
            }
            List<ToolCall> calls = run.route(turn.toolCalls(), offered);
            Optional<RunOutcome> pause = scan(run, roundConfiguration, model, calls, offered);
            if (pause.isPresent()) {
                return pause.get();
            }
            for (int i = 0; i < calls.size(); i++) {
                if (cancellation.cancelled(run.runId)) {
                    return run.cancelRemaining(unpaused(calls.subList(i, calls.size()), i, run.preRefused));
                }
                String result = run.preRefused.containsKey(i)
                        ? run.settle(run.preRefused.get(i), run.preRefused.get(i).refusal().resultText())
                        : execute(run, roundConfiguration, offered, calls.get(i), Grant.NONE);
                run.transcript.add(ChatMessage.tool(calls.get(i).id(), result));
            }
            run.preRefused.clear();
        }
    }

    /**
     * The approval scan, then the input scan. Pre-approval rules are asked about each approval-bound call: a
     * deliberate refusal settles the call apart (recorded once now, refused when its turn comes), a failure
     * refusal leaves it waiting. Returns the pause, or empty when the turn runs now.
     */
    private Optional<RunOutcome> scan(Segment run, AgentConfiguration roundConfiguration, ModelConfiguration model,
                                      List<ToolCall> calls, List<String> offered) {
        List<PendingCall> pending = new ArrayList<>(calls.size());
        boolean awaitsApproval = false;
        int inputIndex = -1;
        for (int i = 0; i < calls.size(); i++) {
            ToolCall call = calls.get(i);
            Tool tool = offered.contains(call.name()) ? registry.find(call.name()).orElse(null) : null;
            PendingCall.Disposition disposition = PendingCall.Disposition.RUNS_ON_RESUME;
            PendingCall.Refusal refusal = null;
            ToolInvocationTarget target = null;
            if (tool != null && approvalRule.requiresApproval(tool)) {
                InvocationVerdict verdict = preApprovalVerdict(run, roundConfiguration, call);
                target = verdict.target();
                if (verdict.deliberateRefusal()) {
                    disposition = PendingCall.Disposition.REFUSED;
                    refusal = PendingCall.Refusal.of(verdict);
                    recordInvocationDenied(run, roundConfiguration, call.name(), verdict);
                } else {
                    disposition = PendingCall.Disposition.AWAITS_APPROVAL;
                    awaitsApproval = true;
                }
            } else if (tool instanceof RequiresInput && inputIndex < 0) {
                inputIndex = i;
            }
            pending.add(new PendingCall(i, call, disposition, null, target, refusal, false));
        }
        if (!awaitsApproval && inputIndex >= 0) {
            PendingCall input = pending.get(inputIndex);
            pending.set(inputIndex, new PendingCall(inputIndex, input.call(), PendingCall.Disposition.AWAITS_INPUT,
                    null, null, null, false));
        }
        if (!awaitsApproval && inputIndex < 0) {
            pending.stream().filter(c -> c.disposition() == PendingCall.Disposition.REFUSED)
                    .forEach(c -> run.preRefused.put(c.index(), c));
            return Optional.empty();
        }
        List<InputField> fields = List.of();
        if (awaitsApproval) {
            for (int i = 0; i < pending.size(); i++) {
                PendingCall call = pending.get(i);
                if (call.disposition() == PendingCall.Disposition.AWAITS_APPROVAL) {
                    pending.set(i, call.withPreview(
                            previewOf(call.call(), roundConfiguration, run.context).orElse(null), false));
                }
            }
        } else {
            fields = ((RequiresInput) registry.find(calls.get(inputIndex).name()).orElseThrow()).inputFields();
        }
        PausedState state = new PausedState(run.runId,
                awaitsApproval ? RunStatus.WAITING_FOR_APPROVAL : RunStatus.WAITING_FOR_INPUT,
                run.configuration.name(), model, run.transcript, pending, run.counters, offered, run.options,
                fields, run.history, run.context.initiatingActor(), run.context.actingUser(), run.context.locale());
        return Optional.of(awaitsApproval ? new RunOutcome.WaitingForApproval(state)
                : new RunOutcome.WaitingForInput(state));
    }

    private InvocationVerdict preApprovalVerdict(Segment run, AgentConfiguration configuration, ToolCall call) {
        try {
            return Objects.requireNonNull(preApprovalPolicy.evaluate(new ToolInvocationContext(call.name(),
                    call.arguments(), configuration, null, run.context, run.history)), "verdict");
        } catch (RuntimeException e) {
            return InvocationVerdict.policyFailed();
        }
    }

    /** Why a call may run without a fresh approval: an operator approved it, or it is the input tool. */
    private enum Grant {
        NONE,
        APPROVED,
        INPUT
    }

    /**
     * Runs one call through every check, in order: registered and still passing the gates, offered in this run,
     * approved if it needs approval, no typed input needed unless it got it, arguments within size and schema,
     * the invocation rules; then executes it. Returns the result text for the model; every refusal says that
     * nothing was executed. A tool's exception text never leaves this method.
     */
    private String execute(Segment run, AgentConfiguration configuration, List<String> offered, ToolCall call,
                           Grant grant) {
        Actor actor = run.context.actingUser();
        ToolAccessDecision gate = accessPolicy.check(call.name(), configuration, actor);
        if (!gate.permitted() || !offered.contains(call.name())) {
            ToolAccessDecision denial = gate.permitted()
                    ? new ToolAccessDecision(call.name(), ToolDenialReason.NOT_OFFERED) : gate;
            accessPolicy.recordDenial(denial, configuration, run.context.initiatingActor(), run.runId);
            return run.refuse(call, null, "Error: tool \"" + call.name() + "\" is not available in this run (reason: "
                    + denial.denialReason().code() + "). Nothing was executed.");
        }
        Tool tool = registry.find(call.name()).orElseThrow();
        if (approvalRule.requiresApproval(tool) && grant != Grant.APPROVED) {
            record(EventType.WRITE_UNAPPROVED, "approval_missing", call.name(), null, run, configuration,
                    run.context.initiatingActor().name(), null);
            return run.refuse(call, null, "Error: tool \"" + call.name()
                    + "\" needs an operator's approval, which this call did not get. Nothing was executed.");
        }
        if (tool instanceof RequiresInput && grant != Grant.INPUT) {
            return run.refuse(call, null, "Error: tool \"" + call.name()
                    + "\" needs typed input from a person, which this turn cannot ask for. Nothing was executed.");
        }
        ObjectNode arguments = call.arguments();
        int size = arguments.toString().getBytes(StandardCharsets.UTF_8).length;
        if (size > MAX_ARGUMENT_BYTES) {
            return run.observe(call, ToolInvocationObservation.Outcome.FAILED, null, "Error: the arguments of \""
                    + call.name() + "\" are " + size + " bytes, more than the " + MAX_ARGUMENT_BYTES
                    + " allowed. Nothing was executed.");
        }
        Optional<String> problem = ArgumentValidator.firstProblem(tool.argumentSchema(), arguments);
        if (problem.isPresent()) {
            return run.observe(call, ToolInvocationObservation.Outcome.FAILED, null, "Error: the arguments of \""
                    + call.name() + "\" do not fit its schema: " + problem.get() + ". Nothing was executed.");
        }
        InvocationVerdict verdict = invocationVerdict(run, configuration, call, arguments);
        if (!verdict.allowed()) {
            recordInvocationDenied(run, configuration, call.name(), verdict);
            return run.refuse(call, verdict.target(), verdict.refusalText());
        }
        journal.beforeExecute(run.runId, call.id(), call.name());
        ToolResult result;
        try {
            result = Objects.requireNonNull(tool.execute(new ToolCallRequest(call.name(), arguments, configuration,
                    run.context)), "result");
        } catch (Exception e) {
            LOG.log(Level.WARNING, "tool {0} failed in run {1}: {2}",
                    new Object[] {call.name(), run.runId, e.getClass().getName()});
            result = ToolResult.failure("tool \"" + call.name() + "\" failed unexpectedly; its error is kept out of"
                    + " the transcript. Try another approach or ask the person behind the run.");
        }
        ToolInvocationObservation.Outcome outcome = result.failed()
                ? ToolInvocationObservation.Outcome.FAILED : ToolInvocationObservation.Outcome.OK;
        journal.afterExecute(run.runId, call.id(), outcome);
        return run.observe(call, outcome, verdict.target(), result.content());
    }

    private InvocationVerdict invocationVerdict(Segment run, AgentConfiguration configuration, ToolCall call,
                                                ObjectNode arguments) {
        try {
            return Objects.requireNonNull(invocationPolicy.evaluate(new ToolInvocationContext(call.name(),
                    arguments, configuration, null, run.context, run.history)), "verdict");
        } catch (RuntimeException e) {
            return InvocationVerdict.policyFailed();
        }
    }

    private RunOutcome lastAnswer(Segment run) {
        // The last answer goes through the PRE seam too: a round that ran on a more trusted model must not
        // hand its results to the default model only because the round cap was reached.
        ModelConfiguration model = run.chooseModel();
        AssistantTurn turn;
        try {
            turn = chatModel.complete(new ChatRequest(model, run.transcript, List.of(), null));
        } catch (ModelException e) {
            return run.failed("provider_failed", e.getMessage());
        } catch (RuntimeException e) {
            return run.failed("provider_failed", "the model adapter failed unexpectedly ("
                    + e.getClass().getSimpleName() + ")");
        }
        run.counters = run.counters.afterRound(turn.usage());
        // Calls asked for in the last answer would have no results; the answer keeps only its text.
        run.transcript.add(ChatMessage.assistant(turn.content(), List.of()));
        return run.completed(turn.content(), true);
    }

    private Optional<ToolPreview> previewOf(ToolCall call, AgentConfiguration configuration,
                                            ToolExecutionContext context) {
        Optional<Tool> tool = registry.find(call.name());
        if (tool.isEmpty()) {
            return Optional.empty();
        }
        try {
            return tool.get().preview(new ToolCallRequest(call.name(), call.arguments(), configuration, context));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "preview of {0} failed: {1}", new Object[] {call.name(), e.getClass().getName()});
            return Optional.of(new ToolPreview(List.of("(no preview: the tool could not say what this call would do)")));
        }
    }

    private List<ToolSpec> specs(List<String> offered) {
        List<ToolSpec> specs = new ArrayList<>(offered.size());
        for (String name : offered) {
            registry.find(name).ifPresent(tool -> specs.add(ToolSpec.of(tool)));
        }
        return specs;
    }

    private static String toolChoice(RunOptions options, List<String> offered) {
        String choice = options.toolChoice();
        if (choice == null || offered.isEmpty()) {
            return null;
        }
        boolean keyword = choice.equals("auto") || choice.equals("none") || choice.equals("required");
        return keyword || offered.contains(choice) ? choice : null;
    }

    private static String declinedText(Actor operator, String reason) {
        String why = reason == null || reason.isBlank() ? "no reason given" : reason.strip();
        return "Error: declined by " + operator.name() + ": " + why + ". Nothing was executed.";
    }

    private static List<PendingCall> unpaused(List<ToolCall> calls, int firstIndex,
                                              Map<Integer, PendingCall> preRefused) {
        List<PendingCall> pending = new ArrayList<>(calls.size());
        for (int i = 0; i < calls.size(); i++) {
            int index = firstIndex + i;
            pending.add(preRefused.containsKey(index) ? preRefused.get(index) : new PendingCall(index, calls.get(i),
                    PendingCall.Disposition.RUNS_ON_RESUME, null, null, null, false));
        }
        return pending;
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

    private static Map<Integer, ApprovalDecision.CallVerdict> verdictsByIndex(PausedState state,
                                                                            ApprovalDecision decision) {
        Set<Integer> waiting = new LinkedHashSet<>();
        state.awaitingApproval().forEach(call -> waiting.add(call.index()));
        Map<Integer, ApprovalDecision.CallVerdict> verdicts = new HashMap<>();
        for (ApprovalDecision.CallVerdict verdict : decision.verdicts()) {
            if (!waiting.contains(verdict.index())) {
                throw new RunStateException("call " + verdict.index() + " of run " + state.runId()
                        + " does not wait for approval");
            }
            if (verdicts.put(verdict.index(), verdict) != null) {
                throw new RunStateException("call " + verdict.index() + " has two verdicts");
            }
        }
        waiting.removeAll(verdicts.keySet());
        if (!waiting.isEmpty()) {
            throw new RunStateException("calls " + waiting + " of run " + state.runId() + " have no verdict");
        }
        return verdicts;
    }

    private void recordInvocationDenied(Segment run, AgentConfiguration configuration, String toolName,
                                        InvocationVerdict verdict) {
        record(EventType.INVOCATION_DENIED, verdict.decision().reasonCode(), toolName, verdict.ruleIdentifier(), run,
                configuration, run.context.initiatingActor().name(), null);
    }

    private void record(EventType type, String reason, String toolName, String ruleId, Segment run,
                        AgentConfiguration configuration, String actor, String detail) {
        events.record(new GovernanceEvent(ids.next(), clock.instant(), type, reason, toolName, ruleId, run.runId,
                configuration.name(), actor, configuration.model().name(), detail));
    }

    /** The mutable state of one stretch of a run, from its start or resume to its next outcome. */
    private final class Segment {
        final String runId;
        final AgentConfiguration configuration;
        final ToolExecutionContext context;
        final List<ChatMessage> transcript;
        final RunOptions options;
        final Map<String, List<String>> offeredByModel = new HashMap<>();
        final Map<Integer, PendingCall> preRefused = new HashMap<>();
        /** The intent seams, or {@code null} when nothing is configured: the loop then runs exactly as without. */
        final IntentRouting routing;
        ToolInvocationHistory history;
        RunCounters counters;

        Segment(AgentConfiguration configuration, ToolExecutionContext context, List<ChatMessage> transcript,
                ToolInvocationHistory history, RunCounters counters, RunOptions options) {
            this.runId = context.runReference();
            this.configuration = configuration;
            this.context = context;
            this.transcript = new ArrayList<>(transcript);
            this.history = history;
            this.counters = counters;
            this.options = options;
            this.routing = configuration.toolCallPolicies().isEmpty() && roleModelResolver == null
                    && dispatchHook == null ? null
                    : IntentRouting.of(configuration.toolCallPolicies(), roleModelResolver, dispatchHook);
        }

        /** The PRE seam: the model for the next round. */
        ModelConfiguration chooseModel() {
            if (routing == null) {
                return configuration.model();
            }
            return routing.chooseModel(IntentRouting.context(transcript, options.scope(),
                    offerable(configuration), options.toolChoice()), configuration.model());
        }

        /** The POST seam: the calls to dispatch for the turn just appended to the transcript. */
        List<ToolCall> route(List<ToolCall> emitted, List<String> offered) {
            if (routing == null) {
                return emitted;
            }
            DispatchContext context = IntentRouting.context(transcript, options.scope(), offered,
                    options.toolChoice());
            return routing.route(emitted, context, Set.copyOf(offered)).stream().map(RoutedCall::call).toList();
        }

        /** The configuration talking to the model a paused round used, as an intent policy may have chosen. */
        AgentConfiguration configurationFor(ModelConfiguration model) {
            return configuration.model().equals(model) ? configuration : configuration.withModel(model);
        }

        /**
         * The offered names for a round under the given configuration: the agent's candidates through the five
         * gates (recording a denial event once per model in this stretch), narrowed to the unattended set when
         * the run has no approval step.
         */
        List<String> offered(AgentConfiguration roundConfiguration) {
            return offeredByModel.computeIfAbsent(roundConfiguration.model().name(), name -> {
                List<String> permitted = accessPolicy.filterOfferable(candidates(roundConfiguration),
                        roundConfiguration, context.actingUser(), runId);
                return options.unattended() ? unattendedFilter.unattended(permitted) : permitted;
            });
        }

        /**
         * What the default model would be offered, for the PRE seam's context; nothing is recorded, since no
         * round runs on it unless the seam says so.
         */
        List<String> offerable(AgentConfiguration defaultConfiguration) {
            List<String> permitted = accessPolicy.explain(candidates(defaultConfiguration), defaultConfiguration,
                            context.actingUser()).stream().filter(ToolAccessDecision::permitted)
                    .map(ToolAccessDecision::toolName).toList();
            return options.unattended() ? unattendedFilter.unattended(permitted) : permitted;
        }

        String settle(PendingCall call, String resultText) {
            return refuse(call.call(), call.target(), resultText);
        }

        String refuse(ToolCall call, ToolInvocationTarget target, String resultText) {
            return observe(call, ToolInvocationObservation.Outcome.DENIED, target, resultText);
        }

        String observe(ToolCall call, ToolInvocationObservation.Outcome outcome, ToolInvocationTarget target,
                       String resultText) {
            history = history.with(new ToolInvocationObservation(call.name(), outcome, target));
            return resultText;
        }

        RunOutcome completed(String answer, boolean truncated) {
            return new RunOutcome.Completed(runId, answer, truncated, transcript, history, counters);
        }

        RunOutcome failed(String reason, String message) {
            return new RunOutcome.Failed(runId, reason, message, transcript, history, counters);
        }

        RunOutcome cancelled() {
            return new RunOutcome.Cancelled(runId, transcript, history, counters);
        }

        /** Answers every call that had not run, so the transcript stays whole, and ends the run as cancelled. */
        RunOutcome cancelRemaining(List<PendingCall> remaining) {
            for (PendingCall call : remaining) {
                // A call a rule already refused stays refused: its event was recorded, its history says so too.
                String result = call.disposition() == PendingCall.Disposition.REFUSED
                        ? settle(call, call.refusal().resultText())
                        : observe(call.call(), ToolInvocationObservation.Outcome.CANCELLED, call.target(),
                        "Error: the run was cancelled before this call ran. Nothing was executed.");
                transcript.add(ChatMessage.tool(call.call().id(), result));
            }
            return cancelled();
        }
    }

    private Segment resumed(PausedState state, AgentConfiguration configuration) {
        return new Segment(configuration, state.executionContext(), state.transcript(), state.history(),
                state.counters(), state.options());
    }

    private List<String> candidates(AgentConfiguration configuration) {
        Set<String> names = new LinkedHashSet<>();
        for (Tool tool : registry.tools()) {
            if (configuration.toolGroups().contains(tool.group())) {
                names.add(tool.name());
            }
        }
        names.addAll(configuration.allowedTools());
        return new ArrayList<>(names);
    }

    /** Assembles a loop; everything but the registry and the model has a working default. */
    public static final class Builder {
        private final ToolRegistry registry;
        private final ChatModel chatModel;
        private ToolSettingsSource settings = ToolSettingsSource.fixed(ToolSettings.defaults());
        private ToolInvocationPolicy invocationPolicy = context -> InvocationVerdict.allowed(null);
        private PreApprovalInvocationPolicy preApprovalPolicy = context -> InvocationVerdict.allowed(null);
        private EventSink events = event -> { };
        private Clock clock = Clock.systemUTC();
        private IdGenerator ids = IdGenerator.random();
        private ExecutionJournal journal = ExecutionJournal.NONE;
        private RunCancellation cancellation = RunCancellation.NEVER;
        private RoleModelResolver roleModelResolver;
        private ToolCallDispatchHook dispatchHook;

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

        public Builder journal(ExecutionJournal value) {
            this.journal = Objects.requireNonNull(value);
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

        public ToolLoop build() {
            return new ToolLoop(this);
        }
    }
}
