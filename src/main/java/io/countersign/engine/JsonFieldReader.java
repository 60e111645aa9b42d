package io.countersign.engine;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

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

    String text(String field) {
        JsonNode value = required(field);
        if (!value.isTextual()) {
            throw new IllegalArgumentException("field \"" + where(field) + "\" must be a string");
        }
        return value.asText();
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
        JsonNode value = required(field);
        if (!value.isInt()) {
            throw new IllegalArgumentException("field \"" + where(field) + "\" must be an integer");
        }
        return value.asInt();
    }

    long longValue(String field) {
        JsonNode value = required(field);
        if (!value.isIntegralNumber() || !value.canConvertToLong()) {
            throw new IllegalArgumentException("field \"" + where(field) + "\" must be an integer");
        }
        return value.asLong();
    }

    boolean bool(String field) {
        JsonNode value = required(field);
        if (!value.isBoolean()) {
            throw new IllegalArgumentException("field \"" + where(field) + "\" must be true or false");
        }
        return value.asBoolean();
    }

    JsonFieldReader object(String field) {
        JsonNode value = required(field);
        if (!value.isObject()) {
            throw new IllegalArgumentException("field \"" + where(field) + "\" must be an object");
        }
        return new JsonFieldReader(value, where(field));
    }

    <T> List<T> list(String field, Function<JsonFieldReader, T> item) {
        JsonNode value = required(field);
        if (!value.isArray()) {
            throw new IllegalArgumentException("field \"" + where(field) + "\" must be an array");
        }
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
