package io.countersign.service;

import com.fasterxml.jackson.databind.JsonNode;
import io.countersign.engine.Json;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.intent.ToolCallPolicies;
import io.countersign.engine.intent.ToolCallPolicy;
import io.countersign.store.ConfigurationStore;
import io.countersign.store.StoredAgentConfiguration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Agent configurations as the engine runs them: the stored record, its model, and its parsed intent policies. A
 * configuration is kept for as long as the settings' change counter, read before it, has not moved, so that a run
 * or a decision reads one counter instead of the agent and its model and parsing its policies again; a save in any
 * process moves the counter in its own transaction, so a configuration kept here is never used after it.
 */
public final class AgentDirectory {
    private final ConfigurationStore configurations;
    private final Map<String, Kept> kept = new ConcurrentHashMap<>();

    /** A configuration as read when the settings' change counter stood at {@code changeCount}. */
    private record Kept(long changeCount, AgentConfiguration configuration) {
    }

    public AgentDirectory(ConfigurationStore configurations) {
        this.configurations = configurations;
    }

    public List<StoredAgentConfiguration> list() {
        return configurations.listAgents();
    }

    /**
     * The runnable configuration of an agent.
     *
     * @throws IllegalArgumentException when no agent has the name, or its stored configuration cannot run (a
     *                                  missing model, a policy that does not parse); the message says which
     */
    public AgentConfiguration get(String name) {
        long changeCount = configurations.changeCount();
        Kept before = kept.get(name);
        if (before != null && before.changeCount() == changeCount) {
            return before.configuration();
        }
        AgentConfiguration read = read(name);
        kept.put(name, new Kept(changeCount, read));
        return read;
    }

    private AgentConfiguration read(String name) {
        StoredAgentConfiguration stored = configurations.findAgent(name).orElseThrow(() ->
                new IllegalArgumentException("no agent is named \"" + name + "\"; known agents: "
                        + String.join(", ", list().stream().map(StoredAgentConfiguration::name).toList())));
        ModelConfiguration model = model(stored.modelName(), name);
        List<ToolCallPolicy> policies;
        try {
            JsonNode tree = Json.mapper().readTree(stored.toolCallPolicies());
            policies = ToolCallPolicies.parse(tree, modelName -> configurations.findModel(modelName).orElse(null));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("agent \"" + name + "\" has tool call policies that are not JSON: "
                    + e.getOriginalMessage());
        }
        return stored.toAgentConfiguration(model, policies);
    }

    /** Every agent configuration as a list of agents shows it, with its model's trust zone. */
    List<AgentSummary> summaries() {
        return list().stream().map(stored -> {
            var model = findModel(stored.modelName());
            return new AgentSummary(stored.name(), stored.modelName(),
                    model.map(m -> m.trustZone().code()).orElse("unknown"), stored.toolGroups(), stored.fourEyes(),
                    model.map(m -> m.provider().equals("scripted")).orElse(false), stored.deadlines(),
                    stored.approvals());
        }).toList();
    }

    public Optional<ModelConfiguration> findModel(String name) {
        return configurations.findModel(name);
    }

    private ModelConfiguration model(String modelName, String agentName) {
        return configurations.findModel(modelName).orElseThrow(() -> new IllegalArgumentException("agent \""
                + agentName + "\" names the model configuration \"" + modelName + "\", which does not exist"));
    }
}
