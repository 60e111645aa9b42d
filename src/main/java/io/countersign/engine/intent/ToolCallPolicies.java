package io.countersign.engine.intent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Names;
import io.countersign.engine.chat.ModelConfiguration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Reads intent policies declared without code in an agent configuration file: a JSON array of objects like
 *
 * <pre>{@code
 * {"name": "sales_data_read",
 *  "match": {"words": ["sales", "revenue"]},
 *  "whenTool": "run_block",
 *  "redirectTo": "fetch_data",
 *  "model": "cheap-model",
 *  "guard": {"toolOffered": "fetch_data"},
 *  "argsTransform": {"fixed": {"table": "brand_sales"}}}
 * }</pre>
 *
 * <ul>
 *   <li>{@code name} (required): unique within the array.</li>
 *   <li>{@code match} (required), exactly one of: {@code words}, any of which appears as a whole word in the last
 *   user message, ignoring case; {@code regex}, a regular expression found in the last user message (add
 *   {@code (?i)} to ignore case); {@code scope}, values that must all equal the run's scope values.</li>
 *   <li>{@code whenTool}: a tool name or an array of them; absent means any tool.</li>
 *   <li>{@code redirectTo}: the tool to dispatch instead.</li>
 *   <li>{@code model}: the name of a model configuration.</li>
 *   <li>{@code guard}: {@code {"toolOffered": name}}, the redirect applies only when that tool is offered.</li>
 *   <li>{@code argsTransform}: {@code {"fixed": {...}}}, the redirected call gets exactly these arguments.</li>
 * </ul>
 *
 * A policy sets {@code model}, {@code redirectTo} or both; {@code whenTool}, {@code guard} and
 * {@code argsTransform} only shape a redirect, so they need {@code redirectTo}. Every mistake is refused with an
 * {@link IllegalArgumentException} naming the policy (index and name) and the field.
 */
public final class ToolCallPolicies {
    private static final List<String> FIELDS =
            List.of("name", "match", "whenTool", "redirectTo", "model", "guard", "argsTransform");
    private static final List<String> REDIRECT_ONLY_FIELDS = List.of("whenTool", "guard", "argsTransform");
    // Letters, digits and underscore make up a word; anything else (or the text's edge) bounds it.
    private static final String WORD_START = "(?<![\\p{L}\\p{N}_])";
    private static final String WORD_END = "(?![\\p{L}\\p{N}_])";

    private ToolCallPolicies() {
    }

    /**
     * The policies of a configuration, in declared order.
     *
     * @param policies the JSON array
     * @param models   finds a model configuration by name; returns {@code null} for an unknown name
     */
    public static List<ToolCallPolicy> parse(JsonNode policies, Function<String, ModelConfiguration> models) {
        if (policies == null || !policies.isArray()) {
            throw new IllegalArgumentException("tool call policies must be a JSON array of policy objects, got "
                    + kind(policies));
        }
        Objects.requireNonNull(models, "models");
        List<ToolCallPolicy> parsed = new ArrayList<>(policies.size());
        Set<String> names = new HashSet<>();
        for (int index = 0; index < policies.size(); index++) {
            ToolCallPolicy policy = new PolicyReader(index, policies.get(index), models).read();
            if (!names.add(policy.name())) {
                throw new IllegalArgumentException("tool call policy [" + index + "] \"" + policy.name()
                        + "\": \"name\" is already used by an earlier policy");
            }
            parsed.add(policy);
        }
        return List.copyOf(parsed);
    }

    private static String kind(JsonNode node) {
        return node == null || node.isMissingNode() ? "nothing" : node.getNodeType().name().toLowerCase();
    }

    /** Reads one policy object, knowing where it is for the error messages. */
    private static final class PolicyReader {
        private final int index;
        private final JsonNode node;
        private final Function<String, ModelConfiguration> models;
        private String name;

        PolicyReader(int index, JsonNode node, Function<String, ModelConfiguration> models) {
            this.index = index;
            this.node = node;
            this.models = models;
        }

        ToolCallPolicy read() {
            if (!node.isObject()) {
                throw error("must be a JSON object, got " + kind(node));
            }
            name = requireText("name", node.get("name"));
            for (Iterator<String> fields = node.fieldNames(); fields.hasNext(); ) {
                String field = fields.next();
                if (!FIELDS.contains(field)) {
                    throw error("unknown field \"" + field + "\"; expected one of " + String.join(", ", FIELDS));
                }
            }
            String redirectTo = node.has("redirectTo") ? requireToolName("redirectTo", node.get("redirectTo")) : null;
            ModelConfiguration model = node.has("model") ? model(node.get("model")) : null;
            if (redirectTo == null && model == null) {
                throw error("sets neither \"model\" nor \"redirectTo\", so it would do nothing");
            }
            if (redirectTo == null) {
                for (String field : REDIRECT_ONLY_FIELDS) {
                    if (node.has(field)) {
                        throw error(field, "only shapes a redirect; set \"redirectTo\" or remove \"" + field + "\"");
                    }
                }
            }
            return new ToolCallPolicy(name, match(requireObject("match", node.get("match"))),
                    node.has("whenTool") ? whenTool(node.get("whenTool")) : Set.of(), redirectTo, model,
                    node.has("argsTransform") ? argsTransform(node.get("argsTransform")) : null,
                    node.has("guard") ? guard(node.get("guard")) : null);
        }

        private Predicate<DispatchContext> match(JsonNode match) {
            String kind = onlyField("match", match, List.of("words", "regex", "scope"));
            JsonNode value = match.get(kind);
            return switch (kind) {
                case "words" -> new LastUserMessageMatch(Pattern.compile(wordsPattern(value),
                        Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE));
                case "regex" -> new LastUserMessageMatch(regex(value));
                default -> new ScopeMatch(scope(value));
            };
        }

        private String wordsPattern(JsonNode words) {
            List<String> alternatives = nonEmptyArray("match.words", words, "word").stream()
                    .map(Pattern::quote).toList();
            return WORD_START + "(?:" + String.join("|", alternatives) + ")" + WORD_END;
        }

        private Pattern regex(JsonNode regex) {
            String expression = requireText("match.regex", regex);
            try {
                return Pattern.compile(expression);
            } catch (PatternSyntaxException bad) {
                throw error("match.regex", "is not a valid regular expression: " + bad.getDescription()
                        + " near index " + bad.getIndex());
            }
        }

        private Map<String, String> scope(JsonNode scope) {
            requireObject("match.scope", scope);
            if (scope.isEmpty()) {
                throw error("match.scope", "must name at least one scope key");
            }
            Map<String, String> values = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> entry : scope.properties()) {
                values.put(entry.getKey(), requireText("match.scope." + entry.getKey(), entry.getValue()));
            }
            return values;
        }

        private Set<String> whenTool(JsonNode whenTool) {
            if (whenTool.isTextual()) {
                return Set.of(requireToolName("whenTool", whenTool));
            }
            if (!whenTool.isArray()) {
                throw error("whenTool", "must be a tool name or an array of tool names, got " + kind(whenTool));
            }
            Set<String> names = new LinkedHashSet<>();
            for (int i = 0; i < whenTool.size(); i++) {
                names.add(requireToolName("whenTool[" + i + "]", whenTool.get(i)));
            }
            if (names.isEmpty()) {
                throw error("whenTool", "must name at least one tool; leave it out to redirect any tool");
            }
            return names;
        }

        private ModelConfiguration model(JsonNode model) {
            String configurationName = requireText("model", model);
            ModelConfiguration found = models.apply(configurationName);
            if (found == null) {
                throw error("model", "names an unknown model configuration \"" + configurationName + "\"");
            }
            return found;
        }

        private Predicate<DispatchContext> guard(JsonNode guard) {
            requireObject("guard", guard);
            onlyField("guard", guard, List.of("toolOffered"));
            return new ToolOffered(requireToolName("guard.toolOffered", guard.get("toolOffered")));
        }

        private BiFunction<ObjectNode, DispatchContext, ObjectNode> argsTransform(JsonNode transform) {
            requireObject("argsTransform", transform);
            onlyField("argsTransform", transform, List.of("fixed"));
            return new FixedArguments((ObjectNode) requireObject("argsTransform.fixed", transform.get("fixed")));
        }

        /** The one field the object has, which must be one of {@code allowed}. */
        private String onlyField(String field, JsonNode object, List<String> allowed) {
            if (object.size() != 1) {
                throw error(field, "must have exactly one of " + String.join(", ", allowed) + ", got "
                        + (object.isEmpty() ? "none" : String.join(", ", fieldNames(object))));
            }
            String only = object.fieldNames().next();
            if (!allowed.contains(only)) {
                throw error(field, "has unknown field \"" + only + "\"; expected one of " + String.join(", ", allowed));
            }
            return only;
        }

        private List<String> nonEmptyArray(String field, JsonNode array, String what) {
            if (array == null || !array.isArray() || array.isEmpty()) {
                throw error(field, "must be a non-empty array of " + what + "s, got "
                        + (array != null && array.isArray() ? "an empty one" : kind(array)));
            }
            List<String> values = new ArrayList<>(array.size());
            for (int i = 0; i < array.size(); i++) {
                values.add(requireText(field + "[" + i + "]", array.get(i)));
            }
            return values;
        }

        private JsonNode requireObject(String field, JsonNode value) {
            if (value == null || !value.isObject()) {
                throw error(field, value == null ? "is required" : "must be a JSON object, got " + kind(value));
            }
            return value;
        }

        private String requireText(String field, JsonNode value) {
            if (value == null) {
                throw error(field, "is required");
            }
            if (!value.isTextual() || value.textValue().isBlank()) {
                throw error(field, "must be a non-empty string, got " + (value.isTextual() ? "a blank one" : kind(value)));
            }
            return value.textValue();
        }

        private String requireToolName(String field, JsonNode value) {
            String toolName = requireText(field, value);
            if (!Names.isCode(toolName)) {
                throw error(field, "tool name \"" + toolName + "\" must match [a-z][a-z0-9_.-]* and be 1 to "
                        + Names.MAX_CODE_LENGTH + " characters long");
            }
            return toolName;
        }

        private IllegalArgumentException error(String field, String problem) {
            return error("\"" + field + "\" " + problem);
        }

        private IllegalArgumentException error(String problem) {
            String who = name == null ? "(no name)" : "\"" + name + "\"";
            return new IllegalArgumentException("tool call policy [" + index + "] " + who + ": " + problem);
        }

        private static List<String> fieldNames(JsonNode object) {
            List<String> names = new ArrayList<>();
            object.fieldNames().forEachRemaining(names::add);
            return names;
        }
    }

    /** Holds when the pattern is found in the last user message. */
    private record LastUserMessageMatch(Pattern pattern) implements Predicate<DispatchContext> {
        @Override
        public boolean test(DispatchContext context) {
            return pattern.matcher(context.lastUserMessage()).find();
        }
    }

    /** Holds when every given scope value equals the run's. */
    private record ScopeMatch(Map<String, String> values) implements Predicate<DispatchContext> {
        ScopeMatch {
            values = Map.copyOf(values);
        }

        @Override
        public boolean test(DispatchContext context) {
            return values.entrySet().stream()
                    .allMatch(entry -> entry.getValue().equals(context.scope().get(entry.getKey())));
        }
    }

    /** Holds when the tool is among those offered this round. */
    private record ToolOffered(String tool) implements Predicate<DispatchContext> {
        @Override
        public boolean test(DispatchContext context) {
            return context.resolvedToolNames().contains(tool);
        }
    }

    /** Replaces the arguments with a fixed object. */
    private record FixedArguments(ObjectNode arguments) implements BiFunction<ObjectNode, DispatchContext, ObjectNode> {
        FixedArguments {
            arguments = arguments.deepCopy();
        }

        @Override
        public ObjectNode apply(ObjectNode emitted, DispatchContext context) {
            return arguments.deepCopy();
        }
    }
}
