package io.countersign.console.input;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.tool.InputField;
import io.countersign.engine.tool.InputValidation;
import io.countersign.engine.tool.SchemaValidator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The typed fields of a form with what the person entered, shared by every card that asks for input: the values
 * as a service takes them, and the problems placed under their fields.
 */
public final class InputForm {
    private final ObservableList<InputFieldItem> fields = FXCollections.observableArrayList();
    private final ReadOnlyObjectWrapper<InputFieldItem> firstError = new ReadOnlyObjectWrapper<>();
    private final SchemaValidator schemas;

    /** A form whose values are checked with {@code schemas}, the validator the service checks them with. */
    public InputForm(SchemaValidator schemas) {
        this.schemas = Objects.requireNonNull(schemas, "schemas");
    }

    /** Shows these fields, every one empty; the guesses (by field name) become hints. */
    public void show(List<InputField> shown, Map<String, String> guesses) {
        List<InputFieldItem> items = new ArrayList<>();
        for (InputField field : shown) {
            items.add(new InputFieldItem(field, guesses.get(field.name()), schemas));
        }
        fields.setAll(items);
        firstError.set(null);
    }

    /** The values as the service takes them: one entry per field the person filled. */
    public ObjectNode values() {
        ObjectNode values = JsonNodeFactory.instance.objectNode();
        for (InputFieldItem item : fields) {
            JsonNode value = item.value();
            if (value != null) {
                values.set(item.field().name(), value);
            }
        }
        return values;
    }

    /** Checks the values against the fields, by the rules the service holds them to; problems show. */
    public boolean check() {
        List<InputValidation.FieldError> problems = InputValidation.validate(schemas,
                fields.stream().map(InputFieldItem::field).toList(), values());
        if (problems.isEmpty()) {
            clearErrors();
            return true;
        }
        showErrors(problems);
        return false;
    }

    /** Puts each problem under its field; returns the messages of those that name no field of the form. */
    public List<String> showErrors(List<InputValidation.FieldError> errors) {
        clearErrors();
        InputFieldItem first = null;
        List<String> unplaced = new ArrayList<>();
        for (InputValidation.FieldError error : errors) {
            InputFieldItem item = fields.stream().filter(f -> f.field().name().equals(error.field())).findFirst()
                    .orElse(null);
            if (item == null) {
                unplaced.add(error.message());
                continue;
            }
            item.setError(error.message());
            if (first == null) {
                first = item;
            }
        }
        // set anew even for the same field, so the view focuses it again
        firstError.set(null);
        firstError.set(first);
        return unplaced;
    }

    /** Takes every problem away. */
    public void clearErrors() {
        fields.forEach(item -> item.setError(""));
    }

    /** The form's fields, in the tool's order. */
    public ObservableList<InputFieldItem> fields() {
        return fields;
    }

    /** The first field with a problem after the last check, for the view to focus; {@code null} when none. */
    public ReadOnlyObjectProperty<InputFieldItem> firstErrorProperty() {
        return firstError.getReadOnlyProperty();
    }
}
