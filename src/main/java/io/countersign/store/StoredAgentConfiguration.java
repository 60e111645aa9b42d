package io.countersign.store;

import io.countersign.engine.Names;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.agent.ApprovalQuorum;
import io.countersign.engine.agent.DecisionDeadlines;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.intent.ToolCallPolicy;
import java.util.List;
import java.util.Objects;

/**
 * An agent configuration as the store keeps it: the model by name, and the declarative tool-call policies as
 * the JSON text the caller gave (the caller parses it; the store checks only that it is a JSON array), and its
 * decision deadlines and how many people approve its cards.
 */
public record StoredAgentConfiguration(String name, String systemPrompt, String modelName, List<String> toolGroups,
                                       List<String> allowedTools, String workspace, String toolCallPolicies,
                                       int maxRounds, boolean fourEyes, DecisionDeadlines deadlines,
                                       ApprovalQuorum approvals) {
    public StoredAgentConfiguration {
        deadlines = deadlines == null ? DecisionDeadlines.NONE : deadlines;
        approvals = approvals == null ? ApprovalQuorum.ONE : approvals;
        Names.requireCode(name, "agent configuration name");
        Names.requireCode(modelName, "agent configuration \"" + name + "\": model configuration name");
        systemPrompt = systemPrompt == null ? "" : systemPrompt;
        toolGroups = List.copyOf(toolGroups);
        allowedTools = List.copyOf(allowedTools);
        toolCallPolicies = toolCallPolicies == null ? "[]" : toolCallPolicies;
        if (maxRounds < 1) {
            throw new IllegalArgumentException("agent configuration \"" + name + "\": maxRounds must be at least 1,"
                    + " got " + maxRounds);
        }
    }

    /** A configuration whose cards one person decides. */
    public StoredAgentConfiguration(String name, String systemPrompt, String modelName, List<String> toolGroups,
                                    List<String> allowedTools, String workspace, String toolCallPolicies,
                                    int maxRounds, boolean fourEyes, DecisionDeadlines deadlines) {
        this(name, systemPrompt, modelName, toolGroups, allowedTools, workspace, toolCallPolicies, maxRounds,
                fourEyes, deadlines, ApprovalQuorum.ONE);
    }

    /** A configuration whose cards wait without a deadline. */
    public StoredAgentConfiguration(String name, String systemPrompt, String modelName, List<String> toolGroups,
                                    List<String> allowedTools, String workspace, String toolCallPolicies,
                                    int maxRounds, boolean fourEyes) {
        this(name, systemPrompt, modelName, toolGroups, allowedTools, workspace, toolCallPolicies, maxRounds,
                fourEyes, DecisionDeadlines.NONE);
    }

    /** The stored form of an engine configuration, with its policies written as JSON by the caller. */
    public static StoredAgentConfiguration of(AgentConfiguration agent, String toolCallPoliciesJson) {
        return new StoredAgentConfiguration(agent.name(), agent.systemPrompt(), agent.model().name(),
                agent.toolGroups(), agent.allowedTools(), agent.workspace(), toolCallPoliciesJson, agent.maxRounds(),
                agent.fourEyes(), agent.deadlines(), agent.approvals());
    }

    /** The engine configuration, given the model it names and the policies the caller parsed. */
    public AgentConfiguration toAgentConfiguration(ModelConfiguration model, List<ToolCallPolicy> policies) {
        Objects.requireNonNull(model, "model");
        if (!model.name().equals(modelName)) {
            throw new IllegalArgumentException("agent configuration \"" + name + "\" names the model configuration \""
                    + modelName + "\", not \"" + model.name() + "\"");
        }
        return new AgentConfiguration(name, systemPrompt, model, toolGroups, allowedTools, workspace, policies,
                maxRounds, fourEyes, deadlines, approvals);
    }
}
