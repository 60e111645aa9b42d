package io.countersign.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaException;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.run.AgentConfiguration;
import io.countersign.engine.run.ApprovalDecision;
import io.countersign.engine.run.EditCheck;
import io.countersign.engine.run.PendingCall;
import io.countersign.engine.run.ToolLoop;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.ToolRegistry;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Checks a person's arguments for a waiting call: against the tool's whole JSON Schema (with a full validator, so
 * what the form lets through is what the schema allows), then as the loop checks a call before its card (size, the
 * pre-approval rules), with the preview taken again for the edited call.
 */
final class CallEdits {
    private static final SchemaRegistry SCHEMAS = SchemaRegistry.withDefaultDialect(
            SpecificationVersion.DRAFT_2020_12);

    private final ToolLoop loop;
    private final ToolRegistry registry;

    CallEdits(ToolLoop loop, ToolRegistry registry) {
        this.loop = loop;
        this.registry = registry;
    }

    /** The JSON Schema of a tool's arguments, a copy; empty when the tool is not registered here. */
    Optional<ObjectNode> schemaOf(String tool) {
        return registry.find(tool).map(found -> found.argumentSchema().deepCopy());
    }

    /** One edited call, checked. */
    EditCheck check(StoredRun run, AgentConfiguration configuration, int index, ObjectNode arguments) {
        Optional<PendingCall> waiting = run.pausedState().awaitingApproval().stream()
                .filter(call -> call.index() == index).findFirst();
        if (waiting.isPresent() && arguments != null) {
            String tool = waiting.get().call().name();
            Optional<String> problem = registry.find(tool).map(Tool::argumentSchema)
                    .flatMap(schema -> schemaProblem(schema, arguments));
            if (problem.isPresent()) {
                return new EditCheck.Invalid(index, "the arguments of call " + index + " (" + tool
                        + ") do not fit its schema: " + problem.get());
            }
        }
        return loop.checkEdit(run.pausedState(), configuration, index, arguments);
    }

    /**
     * Every edited call of a decision, checked: the first that does not pass, or the edited calls as they fit, by
     * index.
     */
    Map<Integer, EditCheck> checkAll(StoredRun run, AgentConfiguration configuration,
                                     List<ApprovalDecision.CallVerdict> verdicts) {
        Map<Integer, EditCheck> checked = new LinkedHashMap<>();
        for (ApprovalDecision.CallVerdict verdict : verdicts) {
            if (verdict.edited()) {
                EditCheck check = check(run, configuration, verdict.index(), verdict.arguments());
                if (!(check instanceof EditCheck.Fits)) {
                    return Map.of(verdict.index(), check);
                }
                checked.put(verdict.index(), check);
            }
        }
        return checked;
    }

    /** The refusal a decision gets for an edit that does not pass, naming the call and why; nothing is decided. */
    static Optional<DecisionResult> refusal(String runId, Map<Integer, EditCheck> checked) {
        for (EditCheck check : checked.values()) {
            if (check instanceof EditCheck.Invalid invalid) {
                return Optional.of(new DecisionResult.EditRefused(runId, invalid.index(), null, invalid.problem()));
            }
            if (check instanceof EditCheck.Refused refused) {
                return Optional.of(new DecisionResult.EditRefused(runId, refused.index(), refused.ruleIdentifier(),
                        refused.explanation()));
            }
        }
        return Optional.empty();
    }

    /** The first thing the schema refuses in the arguments, as the validator says it; empty when they fit. */
    static Optional<String> schemaProblem(JsonNode schema, JsonNode arguments) {
        if (schema == null || !schema.isObject()) {
            return Optional.empty();
        }
        Schema compiled;
        try {
            compiled = SCHEMAS.getSchema(schema);
        } catch (SchemaException e) {
            // a schema the validator cannot read is left to the loop's own check and to the tool
            return Optional.empty();
        }
        List<Error> errors = compiled.validate(arguments);
        return errors.isEmpty() ? Optional.empty() : Optional.of(errors.get(0).toString());
    }
}
