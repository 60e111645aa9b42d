package io.countersign.service;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.run.EditCheck;
import io.countersign.engine.run.ToolLoop;
import io.countersign.engine.tool.ToolRegistry;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Checks a person's arguments for a waiting call as the loop checks a call before its card (its schema, size, the
 * pre-approval rules), with the preview taken again for the edited call.
 */
final class CallEdits {
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
        return loop.checkEdit(run.pausedState(), configuration, index, arguments);
    }

    /**
     * Every edited call of a decision, checked: the first that does not pass, or the edited calls as they fit, by
     * index.
     */
    Map<Integer, EditCheck> checkAll(StoredRun run, AgentConfiguration configuration,
                                     List<Decision.CallVerdict> verdicts) {
        Map<Integer, EditCheck> checked = new LinkedHashMap<>();
        for (Decision.CallVerdict verdict : verdicts) {
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
}
