package io.countersign.engine.run;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.call.InvocationVerdict;
import io.countersign.engine.invocation.PreApprovalInvocationPolicy;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.tool.SchemaProblem;
import io.countersign.engine.tool.SchemaValidator;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.ToolPreview;
import io.countersign.engine.tool.ToolRegistry;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * Checks a person's arguments for a waiting call as the loop would check the model's: the call must wait for
 * approval, the arguments must be within size and fit the tool's schema, and the pre-approval rules are asked about
 * the call as edited. The preview is taken again for them, so the card shows what the edited call would do.
 */
record ArgumentEdits(ToolRegistry registry, PreApprovalInvocationPolicy preApprovalPolicy, PauseScan pauseScan,
                     SchemaValidator schemas) {

    EditCheck check(PausedState state, RunSegment run, AgentConfiguration roundConfiguration, int index,
                    ObjectNode arguments) {
        Optional<PendingCall> waiting = state.awaitingApproval().stream().filter(c -> c.index() == index).findFirst();
        if (waiting.isEmpty()) {
            return new EditCheck.Invalid(index, "call " + index + " of run " + state.runId()
                    + " does not wait for approval, so it cannot be edited");
        }
        if (arguments == null) {
            return new EditCheck.Invalid(index, "the arguments of call " + index + " must be a JSON object");
        }
        ToolCall original = waiting.get().call();
        int size = arguments.toString().getBytes(StandardCharsets.UTF_8).length;
        if (size > ToolLoop.MAX_ARGUMENT_BYTES) {
            return new EditCheck.Invalid(index, "the arguments of call " + index + " are " + size
                    + " bytes, more than the " + ToolLoop.MAX_ARGUMENT_BYTES + " allowed");
        }
        Optional<Tool> tool = registry.find(original.name());
        if (tool.isEmpty()) {
            return new EditCheck.Invalid(index, "tool \"" + original.name() + "\" of call " + index
                    + " is not registered in this process, so its arguments cannot be checked");
        }
        Optional<SchemaProblem> problem = schemas.firstProblem(tool.get().argumentSchema(), arguments);
        if (problem.isPresent()) {
            return new EditCheck.Invalid(index, "the arguments of call " + index + " (" + original.name()
                    + ") do not fit its schema: " + problem.get().sentence());
        }
        ToolCall edited = original.withTarget(original.name(), arguments);
        InvocationVerdict verdict = run.verdict(preApprovalPolicy::evaluate, roundConfiguration, edited);
        if (!verdict.allowed()) {
            return new EditCheck.Refused(index, verdict.ruleIdentifier(), verdict.decision().reasonCode(),
                    verdict.decision().explanation());
        }
        ToolPreview preview = pauseScan.preview(edited, roundConfiguration, run.context);
        return new EditCheck.Fits(index, arguments, preview == null ? List.of() : preview.lines(), verdict.target());
    }
}
