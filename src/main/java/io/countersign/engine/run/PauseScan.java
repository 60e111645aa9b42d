package io.countersign.engine.run;

import io.countersign.engine.access.ToolApprovalRule;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.call.InvocationVerdict;
import io.countersign.engine.call.ToolExecutionContext;
import io.countersign.engine.call.ToolInvocationTarget;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.event.EventType;
import io.countersign.engine.grant.Grant;
import io.countersign.engine.invocation.ApprovalAsk;
import io.countersign.engine.invocation.ApprovalAsks;
import io.countersign.engine.invocation.PreApprovalInvocationPolicy;
import io.countersign.engine.port.StandingGrants;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.PendingCall;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.tool.InputField;
import io.countersign.engine.tool.RequiresInput;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.ToolCallRequest;
import io.countersign.engine.tool.ToolPreview;
import io.countersign.engine.tool.ToolRegistry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Decides whether a turn pauses: the approval scan (where a person's standing grant may approve a call), then the
 * input scan. It also takes the previews a card shows,
 * at the pause and again when the card is decided.
 */
record PauseScan(ToolRegistry registry, ToolApprovalRule approvalRule, PreApprovalInvocationPolicy preApprovalPolicy,
                 ApprovalAsks asks, StandingGrants grants, LoopEvents events) {
    private static final Logger LOG = Logger.getLogger(PauseScan.class.getName());

    /** What the scan found: the turn pauses, or its calls run now, in order. */
    sealed interface Result {
        record Pauses(RunOutcome outcome) implements Result {
        }

        record RunsNow(List<PendingCall> calls) implements Result {
        }
    }

    /**
     * A call needs approval when its tool does or a declarative rule asks for a person (the card names the rule
     * and the approvals it wants). Pre-approval rules are asked about each such call: a deliberate refusal settles the call apart
     * (recorded once now, refused when its turn comes), a failure refusal leaves it waiting.
     */
    Result scan(RunSegment run, AgentConfiguration roundConfiguration, ModelConfiguration model,
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
            PendingCall.Asked asked = null;
            if (tool != null) {
                ApprovalAsk ask = run.asked(asks, roundConfiguration, call);
                if (ask instanceof ApprovalAsk.Asks rule) {
                    asked = new PendingCall.Asked(rule.ruleIdentifier(), rule.approvals());
                } else if (ask instanceof ApprovalAsk.Failed failed) {
                    // a person sees it; the invocation policy refuses it rule_failed should it be approved
                    asked = new PendingCall.Asked(failed.ruleIdentifier(), 1);
                }
            }
            if (tool != null && (asked != null || approvalRule.requiresApproval(tool))) {
                InvocationVerdict verdict = run.verdict(preApprovalPolicy::evaluate, roundConfiguration, call);
                target = verdict.target();
                if (verdict.deliberateRefusal()) {
                    disposition = PendingCall.Disposition.REFUSED;
                    refusal = PendingCall.Refusal.of(verdict);
                    events.invocationDenied(run, roundConfiguration, call.name(), verdict);
                } else if (verdict.allowed() && granted(run, roundConfiguration, call, target)) {
                    disposition = PendingCall.Disposition.APPROVED_BY_GRANT;
                } else {
                    disposition = PendingCall.Disposition.AWAITS_APPROVAL;
                    awaitsApproval = true;
                }
            } else if (tool instanceof RequiresInput && inputIndex < 0) {
                inputIndex = i;
            }
            pending.add(new PendingCall(i, call, disposition, null, target, refusal, false, asked));
        }
        if (!awaitsApproval && inputIndex < 0) {
            return new Result.RunsNow(pending);
        }
        List<InputField> fields = List.of();
        if (awaitsApproval) {
            for (int i = 0; i < pending.size(); i++) {
                PendingCall call = pending.get(i);
                if (call.disposition() == PendingCall.Disposition.AWAITS_APPROVAL) {
                    pending.set(i, call.withPreview(preview(call.call(), roundConfiguration, run.context), false));
                }
            }
        } else {
            pending.set(inputIndex, new PendingCall(inputIndex, calls.get(inputIndex),
                    PendingCall.Disposition.AWAITS_INPUT, null, null, null, false, null));
            RequiresInput tool = (RequiresInput) registry.find(calls.get(inputIndex).name()).orElseThrow();
            fields = tool.inputFields().stream().map(field -> field.withSchemaOf(tool.argumentSchema())).toList();
        }
        PausedState state = PausedState.builder()
                .runId(run.runId)
                .status(awaitsApproval ? RunStatus.WAITING_FOR_APPROVAL : RunStatus.WAITING_FOR_INPUT)
                .agentConfiguration(run.configuration.name())
                .model(model)
                .transcript(run.transcript)
                .calls(pending)
                .counters(run.counters)
                .offeredTools(offered)
                .options(run.options)
                .inputFields(fields)
                .history(run.history)
                .initiatingActor(run.context.initiatingActor())
                .actingUser(run.context.actingUser())
                .locale(run.context.locale())
                .build();
        return new Result.Pauses(awaitsApproval ? new RunOutcome.WaitingForApproval(state)
                : new RunOutcome.WaitingForInput(state));
    }

    /**
     * Whether a standing grant approves the call as it finally is (after any redirect), on the target the rules
     * resolved; the first that does is counted and recorded as {@code approved_by_grant}. A grant store that fails
     * approves nothing: the call waits for a person, as without grants.
     */
    private boolean granted(RunSegment run, AgentConfiguration roundConfiguration, ToolCall call,
                            ToolInvocationTarget target) {
        Instant now = events.clock().instant();
        String agent = run.configuration.name();
        String initiator = run.context.initiatingActor().name();
        Optional<Grant> grant;
        try {
            grant = grants.live(agent, call.name(), now).stream()
                    .filter(g -> g.approves(agent, run.runId, initiator, run.configuration.fourEyes(), call, target,
                            now))
                    .findFirst();
            grant.ifPresent(g -> grants.used(g.id(), now));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "standing grants of {0} could not be read: {1}",
                    new Object[] {agent, e.getClass().getName()});
            return false;
        }
        grant.ifPresent(g -> events.record(EventType.APPROVED_BY_GRANT, null, call.name(), null, run,
                roundConfiguration, g.grantedBy(), "grant " + g.id()));
        return grant.isPresent();
    }

    /**
     * Takes the previews of the approved calls again. Returns the calls with the new previews, those that changed
     * marked stale, when any changed (the card is then shown again and nothing executes); else empty.
     */
    Optional<List<PendingCall>> recheckPreviews(PausedState state, PauseAnswer.Approval answer,
                                                AgentConfiguration roundConfiguration, ToolExecutionContext context) {
        boolean stale = false;
        List<PendingCall> rechecked = new ArrayList<>(state.calls().size());
        for (PendingCall call : state.calls()) {
            if (answer.approves(call)) {
                ToolPreview now = preview(call.call(), roundConfiguration, context);
                boolean changed = !Objects.equals(now, call.preview());
                stale |= changed;
                rechecked.add(call.withPreview(now, changed));
            } else {
                rechecked.add(call.withPreview(call.preview(), false));
            }
        }
        return stale ? Optional.of(rechecked) : Optional.empty();
    }

    /** What the call would do, or {@code null} when the tool says nothing; a failing preview says so. */
    ToolPreview preview(ToolCall call, AgentConfiguration configuration, ToolExecutionContext context) {
        Optional<Tool> tool = registry.find(call.name());
        if (tool.isEmpty()) {
            return null;
        }
        Optional<ToolPreview> preview;
        try {
            preview = tool.get().preview(new ToolCallRequest(call.name(), call.arguments(), configuration.workspace(),
                    context));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "preview of {0} failed: {1}", new Object[] {call.name(), e.getClass().getName()});
            return new ToolPreview(List.of("(no preview: the tool could not say what this call would do)"));
        }
        return preview.orElse(null);
    }
}
