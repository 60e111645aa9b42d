package io.countersign.engine.tool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/** Checks a person's typed values against an input tool's fields, and lays them over the model's arguments. */
public final class InputValidation {
    private InputValidation() {
    }

    /** The problems, one per field at most, in the fields' order; empty when the values are valid. */
    public static List<FieldError> validate(List<InputField> fields, ObjectNode values) {
        List<FieldError> errors = new ArrayList<>();
        for (InputField field : fields) {
            JsonNode value = values.get(field.name());
            if (value == null || value.isNull() || (value.isTextual() && value.asText().isBlank())) {
                if (field.required()) {
                    errors.add(new FieldError(field.name(), field.label() + " is required"));
                }
                continue;
            }
            String problem = problem(field, value);
            if (problem != null) {
                errors.add(new FieldError(field.name(), problem));
            }
        }
        return errors;
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
            if (value == null || value.isNull() || (value.isTextual() && value.asText().isBlank())) {
                result.remove(field.name());
            } else {
                result.set(field.name(), value.deepCopy());
            }
        }
        return result;
    }

    private static String problem(InputField field, JsonNode value) {
        return switch (field.type()) {
            case STRING -> value.isTextual() ? null : field.label() + " must be text";
            case NUMBER -> value.isNumber() ? null : field.label() + " must be a number";
            case INTEGER -> value.isIntegralNumber()
                    || (value.isNumber() && value.asDouble() == Math.rint(value.asDouble()))
                    ? null : field.label() + " must be a whole number";
            case BOOLEAN -> value.isBoolean() ? null : field.label() + " must be yes or no";
            case ENUM -> value.isTextual() && field.options().contains(value.asText())
                    ? null : field.label() + " must be one of " + String.join(", ", field.options());
        };
    }

    /** A problem with one field, for the form to show under it. */
    public record FieldError(String field, String message) {
    }
}
