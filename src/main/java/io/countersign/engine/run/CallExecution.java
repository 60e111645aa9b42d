package io.countersign.engine.run;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Actor;
import io.countersign.engine.access.ToolAccessDecision;
import io.countersign.engine.access.ToolAccessPolicy;
import io.countersign.engine.access.ToolApprovalRule;
import io.countersign.engine.access.ToolDenialReason;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.call.InvocationVerdict;
import io.countersign.engine.call.ToolInvocationObservation;
import io.countersign.engine.chat.ChatMessage;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.event.EventType;
import io.countersign.engine.invocation.ApprovalAsk;
import io.countersign.engine.invocation.ApprovalAsks;
import io.countersign.engine.invocation.ToolInvocationPolicy;
import io.countersign.engine.port.RunTelemetry;
import io.countersign.engine.state.PendingCall;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.tool.CallerChannel;
import io.countersign.engine.tool.InputField;
import io.countersign.engine.tool.InputPrompts;
import io.countersign.engine.tool.RemoteTool;
import io.countersign.engine.tool.RequiresInput;
import io.countersign.engine.tool.SchemaProblem;
import io.countersign.engine.tool.SchemaValidator;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.ToolCallRequest;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.engine.tool.ToolResult;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;

/**
 * Runs the calls of a turn in order, whether the turn just came from the model or resumes after a pause, and
 * each call through every check before its tool executes.
 */
record CallExecution(ToolRegistry registry, ToolAccessPolicy accessPolicy, ToolApprovalRule approvalRule,
                     ApprovalAsks asks, ToolInvocationPolicy invocationPolicy, RunCancellation cancellation, LoopEvents events,
                     InputPrompts prompts, ToolResultListener results, CallerChannels callers,
                     SchemaValidator schemas) {
    private static final Logger LOG = Logger.getLogger(CallExecution.class.getName());

    /**
     * Answers each call of the turn in the transcript, in order: a refused call with its refusal, a call that
     * waited with what the answer made of it, any other through {@link #execute}. Returns the cancelled outcome
     * when the run was cancelled before the turn was through, or the flagged one when a call's outcome is unknown
     * (the calls after it are not run), else empty.
     */
    Optional<RunOutcome> runTurn(RunSegment run, AgentConfiguration configuration, List<String> offered,
                                 List<PendingCall> calls, PauseAnswer answer) {
        for (int i = 0; i < calls.size(); i++) {
            if (cancellation.cancelled(run.runId)) {
                return Optional.of(run.cancelRemaining(calls.subList(i, calls.size())));
            }
            PendingCall call = calls.get(i);
            String result = switch (call.disposition()) {
                case REFUSED -> run.settle(call, call.refusal().resultText());
                case RUNS_ON_RESUME -> execute(run, configuration, offered, call.call(), PauseAnswer.Grant.NONE, null);
                // a standing grant approved it at the scan; it still goes through every gate and rule
                case APPROVED_BY_GRANT -> execute(run, configuration, offered, call.call(),
                        PauseAnswer.Grant.APPROVED, null);
                case AWAITS_APPROVAL, AWAITS_INPUT -> {
                    PauseAnswer.Step step = answer.stepFor(call);
                    if (step instanceof PauseAnswer.Step.Run runs) {
                        String note = runs.editedBy() == null ? null : editedNote(runs.editedBy());
                        String text = execute(run, configuration, offered, runs.call(), runs.grant(), note);
                        yield note == null ? text : text + note;
                    }
                    yield run.settle(call, ((PauseAnswer.Step.Refuse) step).resultText());
                }
            };
            if (run.outcomeUnknown().isPresent()) {
                return run.outcomeUnknown();
            }
            run.notExecuted(call.call(), ToolInvocationObservation.Outcome.DENIED);
            run.append(ChatMessage.tool(call.call().id(), result));
        }
        return Optional.empty();
    }

    /** What the model reads after the result of a call a person edited: who changed it, never what. */
    static String editedNote(String person) {
        return "\n(Note: " + person + " changed the arguments of this call before approving it; the result above is"
                + " of the call as they changed it.)";
    }

    /**
     * Runs one call through every check, in order: registered and still passing the gates, offered in this run,
     * approved if it needs approval, no typed input needed unless it got it, arguments within size and schema,
     * the invocation rules; then executes it. Returns the result text for the model; every refusal says that
     * nothing was executed. A tool's exception text never leaves this method.
     */
    private String execute(RunSegment run, AgentConfiguration configuration, List<String> offered, ToolCall call,
                           PauseAnswer.Grant grant, String note) {
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
        if (approvalRule.requiresApproval(tool) && grant != PauseAnswer.Grant.APPROVED) {
            events.record(EventType.WRITE_UNAPPROVED, "approval_missing", call.name(), null, run, configuration,
                    run.context.initiatingActor().name(), null);
            return run.refuse(call, null, "Error: tool \"" + call.name()
                    + "\" needs an operator's approval, which this call did not get. Nothing was executed.");
        }
        if (grant != PauseAnswer.Grant.APPROVED
                && run.asked(asks, configuration, call) instanceof ApprovalAsk.Asks asked) {
            events.record(EventType.WRITE_UNAPPROVED, "approval_missing", call.name(), asked.ruleIdentifier(), run,
                    configuration, run.context.initiatingActor().name(), null);
            return run.refuse(call, null, "Error: rule " + asked.ruleIdentifier() + " says this call of \""
                    + call.name() + "\" needs an operator's approval, which it did not get. Nothing was executed.");
        }
        if (tool instanceof RequiresInput && grant != PauseAnswer.Grant.INPUT) {
            return run.refuse(call, null, "Error: tool \"" + call.name()
                    + "\" needs typed input from a person, which this turn cannot ask for. Nothing was executed.");
        }
        ObjectNode arguments = call.arguments();
        int size = arguments.toString().getBytes(StandardCharsets.UTF_8).length;
        if (size > ToolLoop.MAX_ARGUMENT_BYTES) {
            run.dropArguments(call, "arguments of " + size + " bytes, more than the " + ToolLoop.MAX_ARGUMENT_BYTES
                    + " allowed; refused and not kept");
            return run.observe(call, ToolInvocationObservation.Outcome.FAILED, null, "Error: the arguments of \""
                    + call.name() + "\" are " + size + " bytes, more than the " + ToolLoop.MAX_ARGUMENT_BYTES
                    + " allowed. Nothing was executed.");
        }
        Optional<SchemaProblem> problem = schemas.firstProblem(tool.argumentSchema(), arguments);
        if (problem.isPresent()) {
            return run.observe(call, ToolInvocationObservation.Outcome.FAILED, null, "Error: the arguments of \""
                    + call.name() + "\" do not fit its schema: " + problem.get().sentence() + ". Nothing was executed.");
        }
        InvocationVerdict verdict = run.verdict(invocationPolicy::evaluate, configuration, call);
        if (!verdict.allowed()) {
            events.invocationDenied(run, configuration, call.name(), verdict);
            return run.refuse(call, verdict.target(), verdict.refusalText());
        }
        CallerChannel caller = caller(call, note);
        if (caller.withdrawn()) {
            return run.observe(call, ToolInvocationObservation.Outcome.CANCELLED, verdict.target(), "Error: the"
                    + " caller of \"" + call.name() + "\" cancelled it before it ran. Nothing was executed.");
        }
        run.beforeExecute(call);
        RunTelemetry.ToolStep step = run.trace.toolCall(call, tool instanceof RemoteTool, caller.traceParent());
        ToolResult result;
        try {
            result = Objects.requireNonNull(tool.execute(new ToolCallRequest(call.name(), arguments,
                    configuration.workspace(), run.context, promptsFor(run, configuration), caller)), "result");
        } catch (Exception e) {
            LOG.log(Level.WARNING, "tool {0} failed in run {1}: {2}",
                    new Object[] {call.name(), run.runId, e.getClass().getName()});
            result = ToolResult.failure("tool \"" + call.name() + "\" failed unexpectedly; its error is kept out of"
                    + " the transcript. Try another approach or ask the person behind the run.");
        }
        results.executed(call, result, note);
        step.ended(result.outcomeUnknown() ? "unknown" : result.failed() ? "failed" : "ok", result.content());
        if (result.outcomeUnknown()) {
            // No outcome goes in the journal: the call's intent stays open, as after a crash, for a person to settle.
            LOG.log(Level.WARNING, "the outcome of tool {0} in run {1} is unknown",
                    new Object[] {call.name(), run.runId});
            run.outcomeUnknown(call, result.content());
            return result.content();
        }
        ToolInvocationObservation.Outcome outcome = result.failed()
                ? ToolInvocationObservation.Outcome.FAILED : ToolInvocationObservation.Outcome.OK;
        run.afterExecute(call, outcome);
        return run.observe(call, outcome, verdict.target(), result.content());
    }

    /**
     * The way back to the call's caller. A result the run adds a note to (a person edited the call) reaches the
     * caller only with its note, so the tool's early answer goes nowhere.
     */
    private CallerChannel caller(ToolCall call, String note) {
        CallerChannel caller = callers.forCall(call);
        return note == null ? caller : caller.answeringTo(result -> { });
    }

    /** Whom a call's tool may ask for input: no one in a run that cannot pause. Each answer is recorded. */
    private InputPrompts promptsFor(RunSegment run, AgentConfiguration configuration) {
        return question -> {
            InputPrompts.Answer answer = run.options.unattended()
                    ? new InputPrompts.Answer.Declined(null, "the run is unattended, so no one can answer")
                    : question.fields().isEmpty()
                    ? new InputPrompts.Answer.Declined(null, "the form cannot be shown as typed fields")
                    : Objects.requireNonNull(prompts.ask(question), "answer");
            String fields = question.fields().isEmpty() ? "none that can be shown"
                    : question.fields().stream().map(InputField::name).collect(Collectors.joining(", "));
            events.record(EventType.INPUT_ELICITED, answer.action(), question.call().toolName(), null, run,
                    configuration, answer.by() == null ? null : answer.by().name(), "fields: " + fields);
            return answer;
        };
    }
}
