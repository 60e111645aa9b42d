package io.countersign.engine.tool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.Optional;

/**
 * Checks a call's arguments against the subset of JSON Schema that tool schemas use: {@code type},
 * {@code properties}, {@code required}, {@code additionalProperties: false}, {@code enum}, {@code items},
 * {@code minimum}/{@code maximum} and {@code minLength}/{@code maxLength}. Keywords it does not know are ignored,
 * so a richer remote schema is checked as far as this subset goes and the tool itself checks the rest.
 */
final class ArgumentValidator {
    private ArgumentValidator() {
    }

    /** The first problem found, as a sentence naming the property, or empty when the arguments fit. */
    static Optional<String> firstProblem(ObjectNode schema, JsonNode arguments) {
        return check(schema, arguments, "arguments");
    }

    private static Optional<String> check(JsonNode schema, JsonNode value, String where) {
        if (schema == null || !schema.isObject()) {
            return Optional.empty();
        }
        JsonNode type = schema.get("type");
        if (type != null && type.isTextual() && !hasType(value, type.asText())) {
            return Optional.of(where + " must be of type " + type.asText() + ", got " + describe(value));
        }
        JsonNode allowed = schema.get("enum");
        if (allowed != null && allowed.isArray() && !contains(allowed, value)) {
            return Optional.of(where + " must be one of " + allowed + ", got " + value);
        }
        if (value.isObject()) {
            Optional<String> problem = checkObject(schema, (ObjectNode) value, where);
            if (problem.isPresent()) {
                return problem;
            }
        }
        if (value.isArray() && schema.has("items")) {
            for (int i = 0; i < value.size(); i++) {
                Optional<String> problem = check(schema.get("items"), value.get(i), where + "[" + i + "]");
                if (problem.isPresent()) {
                    return problem;
                }
            }
        }
        if (value.isNumber()) {
            if (schema.has("minimum") && value.asDouble() < schema.get("minimum").asDouble()) {
                return Optional.of(where + " must be at least " + schema.get("minimum") + ", got " + value);
            }
            if (schema.has("maximum") && value.asDouble() > schema.get("maximum").asDouble()) {
                return Optional.of(where + " must be at most " + schema.get("maximum") + ", got " + value);
            }
        }
        if (value.isTextual()) {
            int length = value.asText().codePointCount(0, value.asText().length());
            if (schema.has("minLength") && length < schema.get("minLength").asInt()) {
                return Optional.of(where + " must have at least " + schema.get("minLength") + " characters");
            }
            if (schema.has("maxLength") && length > schema.get("maxLength").asInt()) {
                return Optional.of(where + " must have at most " + schema.get("maxLength") + " characters");
            }
        }
        return Optional.empty();
    }

    private static Optional<String> checkObject(JsonNode schema, ObjectNode value, String where) {
        JsonNode required = schema.get("required");
        if (required != null && required.isArray()) {
            for (JsonNode name : required) {
                if (!value.has(name.asText()) || value.get(name.asText()).isNull()) {
                    return Optional.of(where + " is missing the required property \"" + name.asText() + "\"");
                }
            }
        }
        JsonNode properties = schema.path("properties");
        boolean closed = schema.path("additionalProperties").isBoolean()
                && !schema.get("additionalProperties").asBoolean();
        for (Map.Entry<String, JsonNode> field : value.properties()) {
            JsonNode propertySchema = properties.get(field.getKey());
            if (propertySchema == null) {
                if (closed) {
                    return Optional.of(where + " has the unknown property \"" + field.getKey() + "\"");
                }
                continue;
            }
            Optional<String> problem = check(propertySchema, field.getValue(), "property \"" + field.getKey() + "\"");
            if (problem.isPresent()) {
                return problem;
            }
        }
        return Optional.empty();
    }

    private static boolean hasType(JsonNode value, String type) {
        return switch (type) {
            case "object" -> value.isObject();
            case "array" -> value.isArray();
            case "string" -> value.isTextual();
            case "integer" -> value.isIntegralNumber()
                    || (value.isNumber() && value.asDouble() == Math.rint(value.asDouble()));
            case "number" -> value.isNumber();
            case "boolean" -> value.isBoolean();
            case "null" -> value.isNull();
            default -> true;
        };
    }

    private static boolean contains(JsonNode allowed, JsonNode value) {
        for (JsonNode candidate : allowed) {
            if (candidate.equals(value)) {
                return true;
            }
        }
        return false;
    }

    private static String describe(JsonNode value) {
        if (value.isObject()) {
            return "an object";
        }
        if (value.isArray()) {
            return "an array";
        }
        if (value.isTextual()) {
            return "a string";
        }
        if (value.isNumber()) {
            return "the number " + value;
        }
        if (value.isBoolean()) {
            return value.asText();
        }
        return "null";
    }
}
