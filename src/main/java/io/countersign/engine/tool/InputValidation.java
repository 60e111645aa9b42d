package io.countersign.engine.tool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Checks a person's typed values against an input tool's fields, and lays them over the model's arguments. The
 * values are checked with the {@link SchemaValidator} the model's arguments are checked with, against each field's
 * argument schema with the field's type, so a value the form takes is one the tool's arguments take, and a refusal
 * reads the same wherever it comes from.
 */
public final class InputValidation {
    private InputValidation() {
    }

    /**
     * The problems, one per field at most, in the fields' order; empty when the values are valid. An empty text
     * counts as no value; undeclared keys are not looked at (they are dropped when the values are laid over).
     */
    public static List<FieldError> validate(SchemaValidator schemas, List<InputField> fields, ObjectNode values) {
        ObjectNode form = JsonNodeFactory.instance.objectNode().put("type", "object");
        ObjectNode properties = form.putObject("properties");
        ArrayNode required = form.putArray("required");
        ObjectNode given = JsonNodeFactory.instance.objectNode();
        for (InputField field : fields) {
            ObjectNode schema = schemaOf(field);
            // a field's $ref points into the tool's definitions, which the form holds at its root
            for (String definitions : InputField.DEFINITIONS) {
                JsonNode defined = schema.remove(definitions);
                if (defined != null && defined.isObject()) {
                    form.withObjectProperty(definitions).setAll((ObjectNode) defined);
                }
            }
            properties.set(field.name(), schema);
            if (field.required()) {
                required.add(field.name());
            }
            JsonNode value = values.get(field.name());
            if (!absent(value)) {
                given.set(field.name(), value);
            }
        }
        Map<String, FieldError> first = new HashMap<>();
        for (SchemaProblem problem : schemas.problems(form, given)) {
            first.putIfAbsent(problem.field(), new FieldError(problem.field(), problem.sentence()));
        }
        return fields.stream().map(field -> first.get(field.name())).filter(Objects::nonNull).toList();
    }

    /**
     * The final arguments: the model's arguments with the declared fields replaced by the person's values.
     * Declared fields the person left empty are removed, so a model's guess never stands in for a person's
     * answer; undeclared keys of the person are dropped, undeclared keys of the model are kept.
     */
    public static ObjectNode overlay(ObjectNode modelArguments, List<InputField> fields, ObjectNode humanValues) {
        ObjectNode result = modelArguments.deepCopy();
        for (InputField field : fields) {
            JsonNode value = humanValues.get(field.name());
            if (absent(value)) {
                result.remove(field.name());
            } else {
                result.set(field.name(), value.deepCopy());
            }
        }
        return result;
    }

    private static boolean absent(JsonNode value) {
        return value == null || value.isNull() || (value.isTextual() && value.asText().isBlank());
    }

    /** The argument's schema, with the field's type and choices where it does not say them itself. */
    private static ObjectNode schemaOf(InputField field) {
        ObjectNode schema = field.schema();
        if (!schema.has("type")) {
            schema.put("type", switch (field.type()) {
                case STRING, ENUM -> "string";
                case NUMBER -> "number";
                case INTEGER -> "integer";
                case BOOLEAN -> "boolean";
            });
        }
        if (field.type() == InputField.InputType.ENUM && !schema.has("enum")) {
            field.options().forEach(schema.putArray("enum")::add);
        }
        return schema;
    }

    /** A problem with one field, for the form to show under it. */
    public record FieldError(String field, String message) {
    }
}
