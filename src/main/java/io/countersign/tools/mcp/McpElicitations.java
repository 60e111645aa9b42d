package io.countersign.tools.mcp;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Json;
import io.countersign.engine.tool.InputField;
import io.countersign.engine.tool.InputPrompts;
import io.countersign.engine.tool.ToolCallRequest;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A server's {@code elicitation/create} as a question to the person behind the call, and the answer back. MCP's
 * form schema is a flat object of strings, numbers, integers, booleans and single-choice enums, which are exactly
 * the typed fields of an input pause; a form outside that (a multi-select, a nested object) is declined, as is one
 * that arrives while no single call of the connection is open to ask for.
 */
final class McpElicitations {
    private static final TypeReference<Map<String, Object>> CONTENT = new TypeReference<>() {
    };

    private McpElicitations() {
    }

    /** Asks on behalf of {@code call} (null when the connection cannot tell which call asked) and answers. */
    static McpSchema.ElicitResult answer(McpSchema.ElicitFormRequest request, ToolCallRequest call) {
        if (call == null) {
            return McpSchema.ElicitResult.builder(McpSchema.ElicitResult.Action.DECLINE).build();
        }
        ObjectNode schema = Json.mapper().valueToTree(request.requestedSchema() == null ? Map.of()
                : request.requestedSchema());
        // a form that cannot be shown is asked with no fields, so that the run records its decline
        InputPrompts.Answer answer = call.prompts().ask(new InputPrompts.Question(call, request.message(),
                fields(schema).orElse(List.of())));
        if (answer instanceof InputPrompts.Answer.Accepted accepted) {
            return McpSchema.ElicitResult.builder(McpSchema.ElicitResult.Action.ACCEPT)
                    .content(Json.mapper().convertValue(accepted.values(), CONTENT)).build();
        }
        return McpSchema.ElicitResult.builder(answer instanceof InputPrompts.Answer.Cancelled
                ? McpSchema.ElicitResult.Action.CANCEL : McpSchema.ElicitResult.Action.DECLINE).build();
    }

    /** The form's fields in the order the server lists them, or empty when one cannot be shown. */
    static Optional<List<InputField>> fields(ObjectNode schema) {
        Set<String> required = new HashSet<>();
        schema.path("required").forEach(name -> required.add(name.asText()));
        List<InputField> fields = new ArrayList<>();
        for (Map.Entry<String, JsonNode> property : schema.path("properties").properties()) {
            Optional<InputField> field = field(property.getKey(), property.getValue(),
                    required.contains(property.getKey()));
            if (field.isEmpty()) {
                return Optional.empty();
            }
            fields.add(field.get());
        }
        return fields.isEmpty() ? Optional.empty() : Optional.of(fields);
    }

    private static Optional<InputField> field(String name, JsonNode definition, boolean required) {
        if (!definition.isObject() || !name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            return Optional.empty();
        }
        List<String> options = new ArrayList<>();
        definition.path("enum").forEach(option -> options.add(option.asText()));
        definition.path("oneOf").forEach(option -> options.add(option.path("const").asText()));
        InputField.InputType type = switch (definition.path("type").asText()) {
            case "string" -> options.isEmpty() ? InputField.InputType.STRING : InputField.InputType.ENUM;
            case "number" -> InputField.InputType.NUMBER;
            case "integer" -> InputField.InputType.INTEGER;
            case "boolean" -> InputField.InputType.BOOLEAN;
            default -> null;
        };
        if (type == null || type != InputField.InputType.ENUM && !options.isEmpty()) {
            return Optional.empty();
        }
        ObjectNode fieldSchema = (ObjectNode) definition.deepCopy();
        if (!definition.path("enum").isArray() && type == InputField.InputType.ENUM) {
            fieldSchema.remove("oneOf"); // the choices are the options; their titles are for the form only
            fieldSchema.set("enum", Json.mapper().valueToTree(options));
        }
        return Optional.of(new InputField(name, type, definition.path("title").asText(null),
                definition.path("description").asText(null), required, options, fieldSchema));
    }
}
