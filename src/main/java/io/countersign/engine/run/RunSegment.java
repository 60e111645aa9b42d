package io.countersign.engine.run;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.AppendOnlyList;
import io.countersign.engine.Json;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.call.InvocationVerdict;
import io.countersign.engine.call.ToolExecutionContext;
import io.countersign.engine.call.ToolInvocationHistory;
import io.countersign.engine.call.ToolInvocationObservation;
import io.countersign.engine.call.ToolInvocationTarget;
import io.countersign.engine.chat.ChatMessage;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.intent.DispatchContext;
import io.countersign.engine.intent.IntentRouting;
import io.countersign.engine.intent.RoutedCall;
import io.countersign.engine.invocation.ApprovalAsk;
import io.countersign.engine.invocation.ApprovalAsks;
import io.countersign.engine.invocation.ToolInvocationContext;
import io.countersign.engine.port.ExecutionJournal;
import io.countersign.engine.port.RunTelemetry;
import io.countersign.engine.state.PendingCall;
import io.countersign.engine.state.RunCounters;
import io.countersign.engine.state.RunOptions;
import io.countersign.engine.state.RunOutcome;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The mutable state of one stretch of a run, from its start or resume to its next outcome: the transcript, the
 * invocation history and the counters so far, and the offered set per model, computed once per stretch.
 */
final class RunSegment {
    final String runId;
    final AgentConfiguration configuration;
    final ToolExecutionContext context;
    /** Grows without copying: every round hands it on whole, to the model and to the routing policies. */
    AppendOnlyList<ChatMessage> transcript;
    final RunOptions options;
    ToolInvocationHistory history;
    RunCounters counters;
    private final OfferedTools offeredTools;
    /** The intent seams, or {@code null} when nothing is configured: the loop then runs exactly as without. */
    private final IntentRouting routing;
    private final Map<String, List<String>> offeredByModel = new HashMap<>();
    /** The journal of this stretch's driver. */
    private ExecutionJournal journal = ExecutionJournal.NONE;
    private RunOutcome outcomeUnknown;
    /** Calls whose intent was journalled ahead, with the decision, and that have not started yet. */
    private final Set<String> journalledAhead = new HashSet<>();
    /** Where this stretch's model calls and executed calls are traced. */
    RunTelemetry.Stretch trace = RunTelemetry.Stretch.NONE;

    RunSegment(AgentConfiguration configuration, ToolExecutionContext context, List<ChatMessage> transcript,
               ToolInvocationHistory history, RunCounters counters, RunOptions options, OfferedTools offeredTools,
               IntentRouting routing) {
        this.runId = context.runReference();
        this.configuration = configuration;
        this.context = context;
        this.transcript = AppendOnlyList.of(transcript);
        this.history = history;
        this.counters = counters;
        this.options = options;
        this.offeredTools = offeredTools;
        this.routing = routing;
    }

    /** Drives this stretch under the journal, which already holds the intents of the calls given. */
    void journalUnder(ExecutionJournal driverJournal, List<ExecutionJournal.Intent> ahead) {
        this.journal = Objects.requireNonNull(driverJournal, "journal");
        ahead.forEach(intent -> journalledAhead.add(intent.callId()));
    }

    /** The intent of a call about to execute: written now, unless it was journalled ahead. */
    void beforeExecute(ToolCall call) {
        if (!journalledAhead.remove(call.id())) {
            journal.beforeExecute(runId, call.id(), call.name());
        }
    }

    void afterExecute(ToolCall call, ToolInvocationObservation.Outcome outcome) {
        journal.afterExecute(runId, call.id(), outcome);
    }

    /** A call journalled ahead that did not start (a check refused it, or the run was cancelled) says so. */
    void notExecuted(ToolCall call, ToolInvocationObservation.Outcome outcome) {
        if (journalledAhead.remove(call.id())) {
            journal.afterExecute(runId, call.id(), outcome);
        }
    }

    /** The model is about to be asked: the journal commits what it kept back. */
    void beforeModelCall() {
        journal.beforeModelCall(runId);
    }

    /** The PRE seam: the model for the next round. */
    ModelConfiguration chooseModel() {
        if (routing == null) {
            return configuration.model();
        }
        // What the default model would be offered; nothing is recorded, since no round runs on it unless the
        // seam says so.
        List<String> offerable = offeredTools.offerable(configuration, options, context.actingUser());
        return routing.chooseModel(IntentRouting.context(transcript, options.scope(), offerable,
                options.toolChoice()), configuration.model());
    }

    /** The POST seam: the calls to dispatch for the turn just appended to the transcript. */
    List<ToolCall> route(List<ToolCall> emitted, List<String> offered) {
        if (routing == null) {
            return emitted;
        }
        DispatchContext dispatch = IntentRouting.context(transcript, options.scope(), offered, options.toolChoice());
        return routing.route(emitted, dispatch, Set.copyOf(offered)).stream().map(RoutedCall::call).toList();
    }

    /** The configuration talking to the model a round used, as an intent policy may have chosen. */
    AgentConfiguration configurationFor(ModelConfiguration model) {
        return configuration.model().equals(model) ? configuration : configuration.withModel(model);
    }

    /** The offered names for a round under this configuration; a gate's denial is recorded once per model. */
    List<String> offered(AgentConfiguration roundConfiguration) {
        return offeredByModel.computeIfAbsent(roundConfiguration.model().name(), name ->
                offeredTools.offered(roundConfiguration, options, context.actingUser(), runId));
    }

    /**
     * Asks an invocation policy about a call in this run, with its history so far. A policy that throws or
     * answers nothing refuses the call: the rules fail closed.
     */
    InvocationVerdict verdict(Function<ToolInvocationContext, InvocationVerdict> policy,
                              AgentConfiguration roundConfiguration, ToolCall call) {
        try {
            return Objects.requireNonNull(policy.apply(new ToolInvocationContext(call.name(), call.arguments(),
                    roundConfiguration, null, context, history)), "verdict");
        } catch (RuntimeException e) {
            return InvocationVerdict.policyFailed();
        }
    }

    /** Asks the declarative ask rules about a call in this run; asks that throw fail, which no one takes as none. */
    ApprovalAsk asked(ApprovalAsks asks, AgentConfiguration roundConfiguration, ToolCall call) {
        try {
            return Objects.requireNonNull(asks.ask(new ToolInvocationContext(call.name(), call.arguments(),
                    roundConfiguration, null, context, history)), "ask");
        } catch (RuntimeException e) {
            return new ApprovalAsk.Failed("rules.unavailable");
        }
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

    /**
     * Puts a short placeholder in place of a call's arguments in the assistant turn that holds it, so that
     * arguments refused for their size are neither kept nor sent to the model again in later rounds.
     */
    void dropArguments(ToolCall call, String why) {
        ObjectNode placeholder = Json.mapper().createObjectNode().put("refused", why);
        for (int i = transcript.size() - 1; i >= 0; i--) {
            ChatMessage message = transcript.get(i);
            if (message.toolCalls().stream().anyMatch(held -> held.id().equals(call.id()))) {
                transcript = transcript.replacing(i, ChatMessage.assistant(message.content(), message.toolCalls().stream()
                        .map(held -> held.id().equals(call.id())
                                ? new ToolCall(held.id(), held.name(), placeholder) : held).toList()));
                return;
            }
        }
    }

    void append(ChatMessage message) {
        transcript = transcript.plus(message);
    }

    RunOutcome completed(String answer, boolean truncated) {
        return new RunOutcome.Completed(runId, answer, truncated, transcript, history, counters);
    }

    RunOutcome failed(String reason, String message) {
        return new RunOutcome.Failed(runId, reason, message, transcript, history, counters);
    }

    /** The call went out and nobody knows whether it took effect: the stretch ends here, flagged. */
    void outcomeUnknown(ToolCall call, String reason) {
        outcomeUnknown = new RunOutcome.OutcomeUnknown(runId, call.id(), reason, transcript, history, counters);
    }

    /** The flagged outcome of a call whose outcome is unknown, once one is. */
    Optional<RunOutcome> outcomeUnknown() {
        return Optional.ofNullable(outcomeUnknown);
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
            notExecuted(call.call(), ToolInvocationObservation.Outcome.CANCELLED);
            append(ChatMessage.tool(call.call().id(), result));
        }
        return cancelled();
    }
}
