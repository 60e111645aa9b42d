package io.countersign.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The string arguments a built-in tool takes, declared once: they give the tool's JSON Schema and check a call's
 * arguments against it, so the two can never disagree.
 */
final class StringParameters {

    private final Map<String, Boolean> requiredByName;
    private final ObjectNode schema;

    private StringParameters(Map<String, Boolean> requiredByName, ObjectNode schema) {
        this.requiredByName = requiredByName;
        this.schema = schema;
    }

    static Builder builder() {
        return new Builder();
    }

    /** A fresh copy of the object schema, so no caller can change the one the tool checks against. */
    ObjectNode schema() {
        return schema.deepCopy();
    }

    /** The call's arguments, or a refusal naming the first unknown, missing or non-string one. */
    Arguments read(ObjectNode arguments) throws Refusal {
        for (Iterator<String> names = arguments.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!requiredByName.containsKey(name)) {
                throw new Refusal("unknown argument \"" + name + "\"; this tool takes " + expected());
            }
        }
        Map<String, String> values = new HashMap<>();
        for (Map.Entry<String, Boolean> parameter : requiredByName.entrySet()) {
            String name = parameter.getKey();
            JsonNode value = arguments.get(name);
            if (value == null || value.isNull()) {
                if (parameter.getValue()) {
                    throw new Refusal("missing required argument \"" + name + "\"");
                }
            } else if (!value.isTextual()) {
                throw new Refusal("argument \"" + name + "\" must be a string, got "
                        + value.getNodeType().name().toLowerCase(Locale.ROOT));
            } else {
                values.put(name, value.textValue());
            }
        }
        return new Arguments(Map.copyOf(values));
    }

    private String expected() {
        return requiredByName.isEmpty() ? "no arguments" : String.join(", ", requiredByName.keySet());
    }

    /** Checked argument values by name. */
    record Arguments(Map<String, String> values) {

        /** A required argument; {@link #read} has already refused a call without it. */
        String required(String name) {
            return values.get(name);
        }

        Optional<String> optional(String name) {
            return Optional.ofNullable(values.get(name));
        }
    }

    static final class Builder {
        private final Map<String, Boolean> requiredByName = new LinkedHashMap<>();
        private final Map<String, String> descriptions = new LinkedHashMap<>();

        Builder required(String name, String description) {
            return add(name, description, true);
        }

        Builder optional(String name, String description) {
            return add(name, description, false);
        }

        private Builder add(String name, String description, boolean required) {
            if (requiredByName.putIfAbsent(name, required) != null) {
                throw new IllegalArgumentException("parameter \"" + name + "\" is declared twice");
            }
            descriptions.put(name, description);
            return this;
        }

        StringParameters build() {
            ObjectNode schema = JsonNodeFactory.instance.objectNode();
            schema.put("type", "object");
            ObjectNode properties = schema.putObject("properties");
            List<String> required = new ArrayList<>();
            descriptions.forEach((name, description) -> {
                properties.putObject(name).put("type", "string").put("description", description);
                if (requiredByName.get(name)) {
                    required.add(name);
                }
            });
            ArrayNode requiredNode = schema.putArray("required");
            required.forEach(requiredNode::add);
            schema.put("additionalProperties", false);
            return new StringParameters(new LinkedHashMap<>(requiredByName), schema);
        }
    }
}
