package io.countersign.console.card;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Iterator;
import java.util.Map;

/**
 * A call's arguments as a person reads them: one field a line ("path: "NOTES.md""), a text of several lines
 * as the text itself, indented under its name rather than one line of {@code \n} escapes, and anything nested
 * pretty-printed. Arguments that are no JSON object are shown as they came.
 */
final class ArgumentsText {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String INDENT = "  ";

    private ArgumentsText() {
    }

    static String of(String argumentsJson) {
        JsonNode arguments;
        try {
            arguments = JSON.readTree(argumentsJson);
        } catch (JsonProcessingException e) {
            return argumentsJson;
        }
        if (arguments == null || !arguments.isObject()) {
            return argumentsJson;
        }
        if (arguments.isEmpty()) {
            return "{}";
        }
        StringBuilder text = new StringBuilder();
        for (Iterator<Map.Entry<String, JsonNode>> fields = arguments.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            text.append(field.getKey()).append(':');
            JsonNode value = field.getValue();
            if (value.isTextual() && value.asText().contains("\n")) {
                value.asText().lines().forEach(line -> text.append('\n').append(INDENT).append(line));
            } else if (value.isContainerNode() && !value.isEmpty()) {
                pretty(value).lines().forEach(line -> text.append('\n').append(INDENT).append(line));
            } else {
                text.append(' ').append(value.toString());
            }
            if (fields.hasNext()) {
                text.append('\n');
            }
        }
        return text.toString();
    }

    private static String pretty(JsonNode value) {
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(value);
        } catch (JsonProcessingException e) {
            return value.toString();
        }
    }
}
