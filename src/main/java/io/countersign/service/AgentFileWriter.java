package io.countersign.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Json;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.store.StoredAgentConfiguration;
import java.util.List;

/** Writes the configuration file format {@link AgentFile} reads. */
final class AgentFileWriter {
    private AgentFileWriter() {
    }

    /** The file format of these configurations, fields in the documented order and absent values left out. */
    static String write(List<ModelConfiguration> models, List<StoredAgentConfiguration> agents) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        ArrayNode modelArray = root.putArray("models");
        for (ModelConfiguration model : models) {
            ObjectNode node = modelArray.addObject().put("name", model.name()).put("provider", model.provider())
                    .put("model", model.model());
            putIfPresent(node, "endpoint", model.endpoint());
            node.put("trustZone", model.trustZone().code());
            if (model.temperature() != null) {
                node.put("temperature", model.temperature());
            }
            if (model.maxTokens() != null) {
                node.put("maxTokens", model.maxTokens());
            }
            putIfPresent(node, "apiKeyEnvironment", model.apiKeyEnvironment());
            putIfPresent(node, "apiKeyFile", model.apiKeyFile());
        }
        ArrayNode agentArray = root.putArray("agents");
        for (StoredAgentConfiguration agent : agents) {
            ObjectNode node = agentArray.addObject().put("name", agent.name());
            putIfPresent(node, "systemPrompt", agent.systemPrompt().isEmpty() ? null : agent.systemPrompt());
            node.put("model", agent.modelName());
            agent.toolGroups().forEach(node.putArray("toolGroups")::add);
            agent.allowedTools().forEach(node.putArray("allowedTools")::add);
            putIfPresent(node, "workspace", agent.workspace());
            try {
                node.set("toolCallPolicies", Json.mapper().readTree(agent.toolCallPolicies()));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("agent \"" + agent.name() + "\" has stored tool call policies that"
                        + " are not JSON: " + e.getOriginalMessage(), e);
            }
            node.put("maxRounds", agent.maxRounds()).put("fourEyes", agent.fourEyes());
            agent.deadlines().writeTo(node);
            agent.approvals().writeTo(node);
        }
        try {
            return Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(root) + System.lineSeparator();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("configurations did not turn into JSON", e);
        }
    }

    private static void putIfPresent(ObjectNode node, String field, String value) {
        if (value != null) {
            node.put(field, value);
        }
    }

}
