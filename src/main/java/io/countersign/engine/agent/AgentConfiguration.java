package io.countersign.engine.agent;

import io.countersign.engine.Names;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.intent.ToolCallPolicy;
import java.util.List;
import java.util.Objects;

/**
 * How an agent runs: its model, which tools it may use (tool groups plus an allow-list of names), its system
 * prompt, its workspace folder (for file tools and the {@code workspace.boundary} rule), its intent policies,
 * the round cap, whether the four-eyes rule applies to its runs, how long its cards may wait for a decision, and how many
 * distinct people must approve them.
 */
public record AgentConfiguration(String name, String systemPrompt, ModelConfiguration model, List<String> toolGroups,
                                 List<String> allowedTools, String workspace, List<ToolCallPolicy> toolCallPolicies,
                                 int maxRounds, boolean fourEyes, DecisionDeadlines deadlines,
                                 ApprovalQuorum approvals) {
    public static final int DEFAULT_MAX_ROUNDS = 12;

    public AgentConfiguration {
        Names.requireCode(name, "agent configuration name");
        Objects.requireNonNull(model, "model");
        systemPrompt = systemPrompt == null ? "" : systemPrompt;
        toolGroups = List.copyOf(toolGroups);
        allowedTools = List.copyOf(allowedTools);
        toolCallPolicies = List.copyOf(toolCallPolicies);
        deadlines = deadlines == null ? DecisionDeadlines.NONE : deadlines;
        approvals = approvals == null ? ApprovalQuorum.ONE : approvals;
        if (maxRounds < 1) {
            throw new IllegalArgumentException("maxRounds must be at least 1, got " + maxRounds);
        }
    }

    /** A configuration whose cards one person decides. */
    public AgentConfiguration(String name, String systemPrompt, ModelConfiguration model, List<String> toolGroups,
                              List<String> allowedTools, String workspace, List<ToolCallPolicy> toolCallPolicies,
                              int maxRounds, boolean fourEyes, DecisionDeadlines deadlines) {
        this(name, systemPrompt, model, toolGroups, allowedTools, workspace, toolCallPolicies, maxRounds, fourEyes,
                deadlines, ApprovalQuorum.ONE);
    }

    /** A configuration whose cards wait without a deadline. */
    public AgentConfiguration(String name, String systemPrompt, ModelConfiguration model, List<String> toolGroups,
                              List<String> allowedTools, String workspace, List<ToolCallPolicy> toolCallPolicies,
                              int maxRounds, boolean fourEyes) {
        this(name, systemPrompt, model, toolGroups, allowedTools, workspace, toolCallPolicies, maxRounds, fourEyes,
                DecisionDeadlines.NONE);
    }

    /** A configuration with the given model and tool groups and everything else at its default. */
    public static AgentConfiguration of(String name, ModelConfiguration model, List<String> toolGroups) {
        return new AgentConfiguration(name, "", model, toolGroups, List.of(), null, List.of(), DEFAULT_MAX_ROUNDS,
                false);
    }

    /** True when a tool of this name and group may take part in this agent's runs. */
    public boolean includes(String toolName, String group) {
        return toolGroups.contains(group) || allowedTools.contains(toolName);
    }

    /** The same configuration talking to another model, as an intent policy may choose for one round. */
    public AgentConfiguration withModel(ModelConfiguration other) {
        return new AgentConfiguration(name, systemPrompt, other, toolGroups, allowedTools, workspace,
                toolCallPolicies, maxRounds, fourEyes, deadlines, approvals);
    }

    public AgentConfiguration withWorkspace(String folder) {
        return new AgentConfiguration(name, systemPrompt, model, toolGroups, allowedTools, folder, toolCallPolicies,
                maxRounds, fourEyes, deadlines, approvals);
    }

    public AgentConfiguration withToolCallPolicies(List<ToolCallPolicy> policies) {
        return new AgentConfiguration(name, systemPrompt, model, toolGroups, allowedTools, workspace, policies,
                maxRounds, fourEyes, deadlines, approvals);
    }

    public AgentConfiguration withMaxRounds(int rounds) {
        return new AgentConfiguration(name, systemPrompt, model, toolGroups, allowedTools, workspace,
                toolCallPolicies, rounds, fourEyes, deadlines, approvals);
    }

    public AgentConfiguration withAllowedTools(List<String> names) {
        return new AgentConfiguration(name, systemPrompt, model, toolGroups, names, workspace, toolCallPolicies,
                maxRounds, fourEyes, deadlines, approvals);
    }

    public AgentConfiguration withFourEyes(boolean required) {
        return new AgentConfiguration(name, systemPrompt, model, toolGroups, allowedTools, workspace,
                toolCallPolicies, maxRounds, required, deadlines, approvals);
    }

    public AgentConfiguration withSystemPrompt(String prompt) {
        return new AgentConfiguration(name, prompt, model, toolGroups, allowedTools, workspace, toolCallPolicies,
                maxRounds, fourEyes, deadlines, approvals);
    }

    public AgentConfiguration withDeadlines(DecisionDeadlines rules) {
        return new AgentConfiguration(name, systemPrompt, model, toolGroups, allowedTools, workspace,
                toolCallPolicies, maxRounds, fourEyes, rules, approvals);
    }

    public AgentConfiguration withApprovals(ApprovalQuorum quorum) {
        return new AgentConfiguration(name, systemPrompt, model, toolGroups, allowedTools, workspace,
                toolCallPolicies, maxRounds, fourEyes, deadlines, quorum);
    }
}
