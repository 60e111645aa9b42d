package io.countersign.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.countersign.engine.Json;
import io.countersign.engine.Names;
import io.countersign.engine.chat.TrustZone;
import io.countersign.engine.intent.ToolCallPolicies;
import io.countersign.engine.intent.ToolCallPolicy;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.agent.ApprovalQuorum;
import io.countersign.engine.agent.DeadlineAction;
import io.countersign.engine.agent.DecisionDeadlines;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.store.StoredAgentConfiguration;
import java.io.UncheckedIOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The configuration file format: reads a whole file, collecting every problem with its entry and field, and
 * writes one. Unknown fields are problems too, so a typo never silently drops a setting.
 */
final class AgentFile {
    private static final List<String> TOP_FIELDS = List.of("models", "agents");
    private static final List<String> MODEL_FIELDS = List.of("name", "provider", "model", "endpoint", "trustZone",
            "temperature", "maxTokens", "apiKeyEnvironment", "apiKeyFile");
    private static final List<String> AGENT_FIELDS = Stream.concat(Stream.of("name",
            "systemPrompt", "model", "toolGroups", "allowedTools", "workspace", "toolCallPolicies", "maxRounds",
            "fourEyes"), Stream.concat(DecisionDeadlines.FIELDS.stream(), ApprovalQuorum.FIELDS.stream())).toList();

    /** What a valid file holds. */
    record Contents(List<ModelConfiguration> models, List<StoredAgentConfiguration> agents) {
    }

    private final KnownTools known;
    private final Function<String, ModelConfiguration> storedModels;
    private final Consumer<ModelConfiguration> modelCheck;
    private final List<String> problems = new ArrayList<>();

    /**
     * @param storedModels finds a model configuration already in the store, {@code null} when there is none
     * @param modelCheck   refuses a model configuration no provider can serve, with an IllegalArgumentException
     */
    AgentFile(KnownTools known, Function<String, ModelConfiguration> storedModels,
              Consumer<ModelConfiguration> modelCheck) {
        this.known = known;
        this.storedModels = storedModels;
        this.modelCheck = modelCheck;
    }

    /** @throws ConfigurationException with every problem found */
    Contents read(String json, String source) {
        JsonNode root;
        try {
            root = Json.mapper().readTree(json);
        } catch (JsonProcessingException e) {
            throw new ConfigurationException(source, List.of("not valid JSON: " + e.getOriginalMessage()
                    + " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")"));
        }
        if (root == null || !root.isObject()) {
            throw new ConfigurationException(source, List.of("the file must hold a JSON object with \"models\" and"
                    + " \"agents\" arrays"));
        }
        unknownFields("the file", root, TOP_FIELDS);
        List<ModelConfiguration> models = new ArrayList<>();
        Map<String, ModelConfiguration> byName = new LinkedHashMap<>();
        JsonNode modelArray = array("models", root);
        for (int i = 0; i < modelArray.size(); i++) {
            ModelConfiguration model = model(i, modelArray.get(i));
            if (model != null && byName.putIfAbsent(model.name(), model) != null) {
                problems.add("models[" + i + "] \"" + model.name() + "\": the name is already used by an earlier"
                        + " model");
            } else if (model != null) {
                models.add(model);
            }
        }
        List<StoredAgentConfiguration> agents = new ArrayList<>();
        Set<String> agentNames = new HashSet<>();
        JsonNode agentArray = array("agents", root);
        for (int i = 0; i < agentArray.size(); i++) {
            StoredAgentConfiguration agent = agent(i, agentArray.get(i), byName);
            if (agent != null && !agentNames.add(agent.name())) {
                problems.add("agents[" + i + "] \"" + agent.name() + "\": the name is already used by an earlier"
                        + " agent");
            } else if (agent != null) {
                agents.add(agent);
            }
        }
        if (!problems.isEmpty()) {
            throw new ConfigurationException(source, problems);
        }
        return new Contents(models, agents);
    }

    private JsonNode array(String field, JsonNode root) {
        JsonNode value = root.get(field);
        if (value == null || value.isNull()) {
            return JsonNodeFactory.instance.arrayNode();
        }
        if (!value.isArray()) {
            problems.add("\"" + field + "\" must be an array, got " + kind(value));
            return JsonNodeFactory.instance.arrayNode();
        }
        return value;
    }

    private ModelConfiguration model(int index, JsonNode node) {
        Entry entry = new Entry("models[" + index + "]", node);
        if (!entry.isObject(MODEL_FIELDS)) {
            return null;
        }
        String name = entry.code("name", true);
        String provider = entry.text("provider", true);
        String model = entry.text("model", true);
        String endpoint = entry.text("endpoint", false);
        String zone = entry.text("trustZone", true);
        TrustZone trustZone = null;
        if (zone != null) {
            try {
                trustZone = TrustZone.fromCode(zone);
            } catch (IllegalArgumentException e) {
                entry.problem("trustZone", "must be one of " + String.join(", ", Arrays.stream(TrustZone.values())
                        .map(TrustZone::code).toList()) + ", got \"" + zone + "\"");
            }
        }
        Double temperature = entry.number("temperature", 0, 2);
        Integer maxTokens = entry.integer("maxTokens", 1);
        String keyEnvironment = entry.text("apiKeyEnvironment", false);
        String keyFile = entry.text("apiKeyFile", false);
        if (entry.failed()) {
            return null;
        }
        ModelConfiguration configuration = new ModelConfiguration(name, provider, model, endpoint, trustZone,
                temperature, maxTokens, keyEnvironment, keyFile);
        try {
            modelCheck.accept(configuration);
        } catch (IllegalArgumentException | UncheckedIOException e) {
            entry.problem(e.getMessage());
            return null;
        }
        return configuration;
    }

    private StoredAgentConfiguration agent(int index, JsonNode node, Map<String, ModelConfiguration> fileModels) {
        Entry entry = new Entry("agents[" + index + "]", node);
        if (!entry.isObject(AGENT_FIELDS)) {
            return null;
        }
        String name = entry.code("name", true);
        String systemPrompt = entry.text("systemPrompt", false);
        String modelName = entry.code("model", true);
        if (modelName != null && !fileModels.containsKey(modelName) && storedModels.apply(modelName) == null) {
            entry.problem("model", "names the model configuration \"" + modelName + "\", which is neither in this"
                    + " file nor in the store");
        }
        List<String> toolGroups = entry.names("toolGroups", "tool group", known::groupProblem);
        List<String> allowedTools = entry.names("allowedTools", "tool", known::toolProblem);
        String workspace = entry.text("workspace", false);
        if (workspace != null) {
            try {
                if (!Path.of(workspace).isAbsolute()) {
                    entry.problem("workspace", "must be an absolute folder path, got \"" + workspace + "\"");
                }
            } catch (InvalidPathException e) {
                entry.problem("workspace", "is not a valid path: " + e.getReason());
            }
        }
        JsonNode policies = node.has("toolCallPolicies") && !node.get("toolCallPolicies").isNull()
                ? node.get("toolCallPolicies") : JsonNodeFactory.instance.arrayNode();
        try {
            List<ToolCallPolicy> parsed = ToolCallPolicies.parse(policies, model -> fileModels.containsKey(model)
                    ? fileModels.get(model) : storedModels.apply(model));
            for (ToolCallPolicy policy : parsed) {
                List<String> named = new ArrayList<>(policy.whenTool());
                if (policy.redirectTo() != null) {
                    named.add(policy.redirectTo());
                }
                named.stream().distinct().forEach(tool -> known.toolProblem(tool).ifPresent(problem ->
                        entry.problem("toolCallPolicies", "policy \"" + policy.name() + "\" names a tool that"
                                + " cannot be offered: " + problem)));
            }
        } catch (IllegalArgumentException e) {
            entry.problem("toolCallPolicies", e.getMessage());
        }
        Integer maxRounds = entry.integer("maxRounds", 1);
        Boolean fourEyes = entry.bool("fourEyes");
        DecisionDeadlines deadlines = deadlines(entry, node);
        ApprovalQuorum approvals = approvals(entry, node);
        if (entry.failed()) {
            return null;
        }
        return new StoredAgentConfiguration(name, systemPrompt, modelName, toolGroups, allowedTools, workspace,
                policies.toString(), maxRounds == null ? AgentConfiguration.DEFAULT_MAX_ROUNDS : maxRounds,
                fourEyes != null && fourEyes, deadlines, approvals);
    }

    /** The entry's approval counts; a tool's count names a known tool that waits for approval at all. */
    private ApprovalQuorum approvals(Entry entry, JsonNode node) {
        ApprovalQuorum approvals;
        try {
            approvals = ApprovalQuorum.read(node);
        } catch (IllegalArgumentException e) {
            entry.problem(e.getMessage());
            return null;
        }
        approvals.tools().keySet().forEach(tool -> {
            known.toolProblem(tool).ifPresent(problem -> entry.problem("toolApprovals", problem));
            if (known.asksForInput(tool)) {
                entry.problem("toolApprovals", "\"" + tool + "\" asks for typed input, which one person gives;"
                        + " only calls that wait for approval can need more approvals");
            }
        });
        return approvals;
    }

    /** The entry's deadlines; a tool's deadline names a known tool, and an input form's may only cancel. */
    private DecisionDeadlines deadlines(Entry entry, JsonNode node) {
        DecisionDeadlines deadlines;
        try {
            deadlines = DecisionDeadlines.read(node);
        } catch (IllegalArgumentException e) {
            entry.problem(e.getMessage());
            return null;
        }
        deadlines.toolRules().forEach((tool, rule) -> {
            known.toolProblem(tool).ifPresent(problem -> entry.problem("toolDeadlines", problem));
            if (known.asksForInput(tool) && rule.action() != DeadlineAction.CANCEL) {
                entry.problem("toolDeadlines", "\"" + tool + "\" asks for typed input, whose deadline can only"
                        + " cancel the run: onDeadline must be \"cancel\", got \"" + rule.action().code() + "\"");
            }
        });
        return deadlines;
    }

    private void unknownFields(String where, JsonNode node, List<String> known) {
        node.fieldNames().forEachRemaining(field -> {
            if (!known.contains(field)) {
                problems.add(where + ": unknown field \"" + field + "\"; expected " + String.join(", ", known));
            }
        });
    }

    private static String kind(JsonNode node) {
        return node.getNodeType().name().toLowerCase(Locale.ROOT);
    }

    /** One entry of an array, reading its fields and recording what is wrong with them. */
    private final class Entry {
        private final String position;
        private final JsonNode node;
        private String name;
        private int problemCount;

        Entry(String position, JsonNode node) {
            this.position = position;
            this.node = node;
        }

        boolean isObject(List<String> fields) {
            if (!node.isObject()) {
                problem("must be a JSON object, got " + kind(node));
                return false;
            }
            JsonNode given = node.get("name");
            name = given != null && given.isTextual() ? given.textValue() : null;
            node.fieldNames().forEachRemaining(field -> {
                if (!fields.contains(field)) {
                    problem("unknown field \"" + field + "\"; expected one of " + String.join(", ", fields));
                }
            });
            return true;
        }

        boolean failed() {
            return problemCount > 0;
        }

        /** The value, or {@code null} when absent or JSON null (a problem when required), or not text. */
        String text(String field, boolean required) {
            JsonNode value = node.get(field);
            if (value == null || value.isNull()) {
                if (required) {
                    problem(field, "is required");
                }
                return null;
            }
            if (!value.isTextual() || (required && value.textValue().isBlank())) {
                problem(field, "must be a non-empty string, got " + (value.isTextual() ? "a blank one" : kind(value)));
                return null;
            }
            return value.textValue();
        }

        String code(String field, boolean required) {
            String value = text(field, required);
            if (value != null && !Names.isCode(value)) {
                problem(field, "\"" + value + "\" must match [a-z][a-z0-9_.-]* and be 1 to " + Names.MAX_CODE_LENGTH
                        + " characters long");
                return null;
            }
            return value;
        }

        Double number(String field, double min, double max) {
            JsonNode value = node.get(field);
            if (value == null || value.isNull()) {
                return null;
            }
            if (!value.isNumber() || value.doubleValue() < min || value.doubleValue() > max) {
                problem(field, "must be a number from " + min + " to " + max + ", got " + value);
                return null;
            }
            return value.doubleValue();
        }

        Integer integer(String field, int min) {
            JsonNode value = node.get(field);
            if (value == null || value.isNull()) {
                return null;
            }
            if (!value.canConvertToInt() || !value.isIntegralNumber() || value.intValue() < min) {
                problem(field, "must be a whole number of at least " + min + ", got " + value);
                return null;
            }
            return value.intValue();
        }

        Boolean bool(String field) {
            JsonNode value = node.get(field);
            if (value == null || value.isNull()) {
                return null;
            }
            if (!value.isBoolean()) {
                problem(field, "must be true or false, got " + value);
                return null;
            }
            return value.booleanValue();
        }

        /** A list of names, each of which {@code problem} must find nothing wrong with. */
        List<String> names(String field, String what, Function<String, Optional<String>> problem) {
            JsonNode value = node.get(field);
            if (value == null || value.isNull()) {
                return List.of();
            }
            if (!value.isArray()) {
                problem(field, "must be an array of " + what + " names, got " + kind(value));
                return List.of();
            }
            List<String> names = new ArrayList<>();
            for (int i = 0; i < value.size(); i++) {
                JsonNode item = value.get(i);
                if (!item.isTextual()) {
                    problem(field + "[" + i + "]", "must be a " + what + " name, got " + kind(item));
                    continue;
                }
                Optional<String> unknown = problem.apply(item.textValue());
                if (unknown.isPresent()) {
                    problem(field + "[" + i + "]", unknown.get());
                } else {
                    names.add(item.textValue());
                }
            }
            return names;
        }

        void problem(String field, String text) {
            problem("\"" + field + "\" " + text);
        }

        void problem(String text) {
            problemCount++;
            problems.add(position + (name == null ? "" : " \"" + name + "\"") + ": " + text);
        }
    }
}
