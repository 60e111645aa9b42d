package io.countersign.engine.state;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Reads typed fields of one JSON object, naming the path of whatever is missing or of the wrong type, so that
 * {@link PausedStateCodec} can refuse a damaged state with a message a person can act on.
 */
record JsonFieldReader(JsonNode node, String path) {
    private String where(String field) {
        return path.isEmpty() ? field : path + "." + field;
    }

    private JsonNode required(String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            throw new IllegalArgumentException("field \"" + where(field) + "\" is missing");
        }
        return value;
    }

    /** The field's value when it is present and of the kind {@code fits} accepts, else a message naming it. */
    private JsonNode required(String field, Predicate<JsonNode> fits, String kind) {
        JsonNode value = required(field);
        if (!fits.test(value)) {
            throw new IllegalArgumentException("field \"" + where(field) + "\" must be " + kind);
        }
        return value;
    }

    String text(String field) {
        return required(field, JsonNode::isTextual, "a string").asText();
    }

    String textValue() {
        if (!node.isTextual()) {
            throw new IllegalArgumentException("\"" + path + "\" must be a string");
        }
        return node.asText();
    }

    String optionalText(String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : text(field);
    }

    int integer(String field) {
        return required(field, JsonNode::isInt, "an integer").asInt();
    }

    long longValue(String field) {
        return required(field, value -> value.isIntegralNumber() && value.canConvertToLong(), "an integer").asLong();
    }

    boolean bool(String field) {
        return required(field, JsonNode::isBoolean, "true or false").asBoolean();
    }

    JsonFieldReader object(String field) {
        return new JsonFieldReader(required(field, JsonNode::isObject, "an object"), where(field));
    }

    <T> List<T> list(String field, Function<JsonFieldReader, T> item) {
        JsonNode value = required(field, JsonNode::isArray, "an array");
        List<T> items = new ArrayList<>(value.size());
        for (int i = 0; i < value.size(); i++) {
            items.add(item.apply(new JsonFieldReader(value.get(i), where(field) + "[" + i + "]")));
        }
        return items;
    }

    <T> T parse(String field, Function<String, T> parser) {
        String code = field == null ? textValue() : text(field);
        try {
            return parser.apply(code);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("\"" + (field == null ? path : where(field))
                    + "\" has the unknown value \"" + code + "\"");
        }
    }
}
