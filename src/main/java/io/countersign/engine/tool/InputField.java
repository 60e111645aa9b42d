package io.countersign.engine.tool;

import java.util.List;
import java.util.Objects;

/**
 * One typed field of a {@link RequiresInput} tool. {@code options} lists the choices of an
 * {@link InputType#ENUM} field and is empty for every other type.
 */
public record InputField(String name, InputType type, String label, String description, boolean required,
                         List<String> options) {

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
