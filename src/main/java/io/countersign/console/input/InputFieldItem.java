package io.countersign.console.input;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.tool.InputField;
import io.countersign.engine.tool.InputValidation;
import io.countersign.engine.tool.SchemaValidator;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * One field of an input form with what the person typed, ticked or chose, and the problem with it, if any.
 * The model's guess is only a hint: it never fills the value.
 */
public final class InputFieldItem {
    private final InputField field;
    private final String guess;
    private final SchemaValidator schemas;
    private final StringProperty text = new SimpleStringProperty("");
    private final BooleanProperty checked = new SimpleBooleanProperty();
    private final ObjectProperty<String> choice = new SimpleObjectProperty<>();
    private final ReadOnlyStringWrapper error = new ReadOnlyStringWrapper("");

    InputFieldItem(InputField field, String guess, SchemaValidator schemas) {
        this.field = field;
        this.schemas = schemas;
        this.guess = guess == null || guess.isBlank() ? null : guess;
        // checked as the person types, by the rules the service holds the value to
        text.addListener((o, was, now) -> check());
        checked.addListener((o, was, now) -> check());
        choice.addListener((o, was, now) -> check());
    }

    /**
     * Shows what is wrong with the value now, or nothing. An empty field is not blamed while the person types;
     * that it is required is said when they send the form.
     */
    private void check() {
        JsonNode value = value();
        if (value == null) {
            error.set("");
            return;
        }
        ObjectNode alone = JsonNodeFactory.instance.objectNode().set(field.name(), value);
        error.set(InputValidation.validate(schemas, List.of(field), alone).stream().findFirst()
                .map(InputValidation.FieldError::message).orElse(""));
    }

    public InputField field() {
        return field;
    }

    /** The model's guess for this field, or {@code null}. */
    public String guess() {
        return guess;
    }

    /** What was typed into a text, number or integer field. */
    public StringProperty textProperty() {
        return text;
    }

    /** Whether a yes/no field is ticked. */
    public BooleanProperty checkedProperty() {
        return checked;
    }

    /** The option chosen in a choice field, or {@code null}. */
    public ObjectProperty<String> choiceProperty() {
        return choice;
    }

    /** The problem with the value, empty when there is none. */
    public ReadOnlyStringProperty errorProperty() {
        return error.getReadOnlyProperty();
    }

    void setError(String message) {
        error.set(message == null ? "" : message);
    }

    /**
     * The value as the service takes it, or {@code null} when the field was left empty. Numbers that do not
     * parse go as the text typed, so the check can say what is wrong with them.
     */
    JsonNode value() {
        JsonNodeFactory json = JsonNodeFactory.instance;
        String typed = text.get() == null ? "" : text.get().strip();
        return switch (field.type()) {
            case STRING -> typed.isEmpty() ? null : json.textNode(typed);
            case NUMBER -> typed.isEmpty() ? null : number(typed);
            case INTEGER -> typed.isEmpty() ? null : integer(typed);
            case BOOLEAN -> json.booleanNode(checked.get());
            case ENUM -> choice.get() == null ? null : json.textNode(choice.get());
        };
    }

    private static JsonNode number(String typed) {
        try {
            return JsonNodeFactory.instance.numberNode(new BigDecimal(typed));
        } catch (NumberFormatException e) {
            return JsonNodeFactory.instance.textNode(typed);
        }
    }

    private static JsonNode integer(String typed) {
        try {
            return JsonNodeFactory.instance.numberNode(new BigInteger(typed));
        } catch (NumberFormatException e) {
            return number(typed);
        }
    }
}
