package io.countersign.engine.tool;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Objects;

/**
 * One typed field of a {@link RequiresInput} tool. {@code options} lists the choices of an
 * {@link InputType#ENUM} field and is empty for every other type. {@code schema} is the JSON Schema of the tool's
 * argument this field fills (its bounds, pattern, lengths); the person's value must fit it as the model's would.
 */
public record InputField(String name, InputType type, String label, String description, boolean required,
                         List<String> options, ObjectNode schema) {
    /** Where a JSON Schema keeps the definitions its {@code $ref}s point to (2019-09 and later, then draft 7). */
    static final List<String> DEFINITIONS = List.of("$defs", "definitions");

    public InputField {
        Objects.requireNonNull(type, "type");
        if (name == null || !name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw new IllegalArgumentException("input field name \"" + name + "\" must be a JSON identifier");
        }
        label = label == null || label.isBlank() ? name : label;
        description = description == null ? "" : description;
        options = options == null ? List.of() : List.copyOf(options);
        if (type == InputType.ENUM && options.isEmpty()) {
            throw new IllegalArgumentException("choice field \"" + name + "\" needs at least one option");
        }
        if (type != InputType.ENUM && !options.isEmpty()) {
            throw new IllegalArgumentException("field \"" + name + "\" of type " + type + " cannot have options");
        }
        schema = schema == null ? JsonNodeFactory.instance.objectNode() : schema.deepCopy();
    }

    /** A field with no schema of its own yet: {@link #withSchemaOf} gives it the tool's. */
    public InputField(String name, InputType type, String label, String description, boolean required,
                      List<String> options) {
        this(name, type, label, description, required, options, null);
    }

    @Override
    public ObjectNode schema() {
        return schema.deepCopy();
    }

    /**
     * This field with the schema of the argument it fills, taken from the tool's argument schema, with the tool's
     * definitions ({@code $defs}, {@code definitions}) so that a {@code $ref} in it still resolves; required also
     * when that schema lists it as required.
     */
    public InputField withSchemaOf(ObjectNode argumentSchema) {
        var property = argumentSchema.path("properties").path(name);
        boolean listed = false;
        for (var entry : argumentSchema.path("required")) {
            listed |= entry.asText().equals(name);
        }
        ObjectNode fieldSchema = null;
        if (property.isObject()) {
            fieldSchema = property.deepCopy();
            for (String definitions : DEFINITIONS) {
                if (argumentSchema.path(definitions).isObject()) {
                    fieldSchema.set(definitions, argumentSchema.get(definitions).deepCopy());
                }
            }
        }
        return new InputField(name, type, label, description, required || listed, options, fieldSchema);
    }

    public static InputField text(String name, String label, String description, boolean required) {
        return new InputField(name, InputType.STRING, label, description, required, List.of());
    }

    public static InputField choice(String name, String label, String description, boolean required,
                                    List<String> options) {
        return new InputField(name, InputType.ENUM, label, description, required, options);
    }

    /** The kinds of value a person can type. */
    public enum InputType {
        STRING,
        NUMBER,
        INTEGER,
        BOOLEAN,
        ENUM
    }
}
