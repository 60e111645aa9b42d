package io.countersign.console.card;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.console.common.Messages;
import io.countersign.console.controls.DiffView;
import io.countersign.engine.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javafx.collections.ListChangeListener;
import javafx.scene.Node;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/**
 * The edit of one waiting call: a form made from the tool's JSON Schema (strings, numbers, booleans, enums), a JSON
 * editor for everything a form cannot show, what is wrong as the person types, the model's arguments against theirs
 * as a diff, and the preview of the call as edited. The form and the JSON editor write the same arguments.
 */
final class CallEditPane extends VBox {
    private final CallEdit edit;
    private final Messages messages;
    private final GridPane form = new GridPane();
    private final TextArea editor = new TextArea();
    private final Map<String, Field> fields = new LinkedHashMap<>();
    /** Set while the form writes the JSON, so that the JSON's change does not write the form back. */
    private boolean writing;

    /** One form field: reads its value as JSON (null when empty), shows a value. */
    private record Field(Node control, Supplier<JsonNode> value, Consumer<JsonNode> show) {
    }

    CallEditPane(CallEdit edit, Messages messages) {
        this.edit = edit;
        this.messages = messages;
        getStyleClass().add("call-edit");
        setSpacing(6);
        form.setHgap(8);
        form.setVgap(4);
        editor.getStyleClass().add("mono");
        editor.setPrefRowCount(5);
        editor.setWrapText(true);
        editor.setAccessibleText(messages.get("card.edit.json"));
        editor.textProperty().bindBidirectional(edit.jsonProperty());
        edit.jsonProperty().addListener((o, was, now) -> {
            if (!writing) {
                showInForm(now);
            }
        });
        edit.schemaProperty().addListener((o, was, now) -> buildForm(now));
        if (edit.schemaProperty().get() != null) {
            buildForm(edit.schemaProperty().get());
        }

        Label problem = new Label();
        problem.getStyleClass().add("edit-problem");
        problem.setWrapText(true);
        problem.textProperty().bind(edit.problemProperty());
        problem.visibleProperty().bind(edit.problemProperty().isNotNull());
        problem.managedProperty().bind(problem.visibleProperty());

        Label diffTitle = new Label(messages.get("card.edit.diff"));
        diffTitle.getStyleClass().add("context-label");
        DiffView diff = new DiffView();
        diff.setLines(edit.diff());
        edit.diff().addListener((ListChangeListener<String>) change -> diff.setLines(edit.diff()));
        Label previewTitle = new Label(messages.get("card.edit.preview"));
        previewTitle.getStyleClass().add("context-label");
        DiffView preview = new DiffView();
        preview.setLines(edit.preview());
        edit.preview().addListener((ListChangeListener<String>) change -> preview.setLines(edit.preview()));
        previewTitle.visibleProperty().bind(javafx.beans.binding.Bindings.isNotEmpty(edit.preview()));
        previewTitle.managedProperty().bind(previewTitle.visibleProperty());

        Label editorTitle = new Label(messages.get("card.edit.json"));
        editorTitle.getStyleClass().add("context-label");
        getChildren().addAll(form, editorTitle, editor, problem, diffTitle, diff, previewTitle, preview);
        VBox.setVgrow(editor, Priority.NEVER);
    }

    /** A field per top-level property of a kind a form shows; the rest is left to the JSON editor. */
    private void buildForm(ObjectNode schema) {
        form.getChildren().clear();
        fields.clear();
        int row = 0;
        for (Map.Entry<String, JsonNode> property : CallEdit.properties(schema).entrySet()) {
            Field field = field(property.getKey(), property.getValue());
            if (field == null) {
                continue;
            }
            Label label = new Label(property.getKey());
            label.getStyleClass().add("mono");
            label.setLabelFor(field.control());
            form.addRow(row++, label, field.control());
            GridPane.setHgrow(field.control(), Priority.ALWAYS);
            fields.put(property.getKey(), field);
        }
        showInForm(edit.jsonProperty().get());
    }

    private Field field(String name, JsonNode schema) {
        String type = schema.path("type").asText("");
        if (schema.path("enum").isArray()) {
            ComboBox<String> choice = new ComboBox<>();
            List<JsonNode> values = new ArrayList<>();
            schema.get("enum").forEach(value -> {
                values.add(value);
                choice.getItems().add(value.isTextual() ? value.asText() : value.toString());
            });
            choice.setAccessibleText(name);
            choice.valueProperty().addListener((o, was, now) -> write(name));
            return new Field(choice, () -> {
                int at = choice.getSelectionModel().getSelectedIndex();
                return at < 0 ? null : values.get(at);
            }, value -> choice.getSelectionModel().select(value == null ? -1 : values.indexOf(value)));
        }
        switch (type) {
            case "string", "number", "integer" -> {
                TextField text = new TextField();
                text.setAccessibleText(name);
                text.getStyleClass().add("mono");
                text.textProperty().addListener((o, was, now) -> write(name));
                text.setPrefColumnCount(16);
                boolean numeric = !type.equals("string");
                return new Field(text, () -> {
                    String typed = text.getText();
                    if (typed == null || typed.isEmpty()) {
                        return null;
                    }
                    if (!numeric) {
                        return JsonNodeFactory.instance.textNode(typed);
                    }
                    try {
                        return Json.mapper().readTree(typed.strip()).isNumber() ? Json.mapper().readTree(typed.strip())
                                : JsonNodeFactory.instance.textNode(typed);
                    } catch (Exception e) {
                        // kept as text: the schema check then says it is not a number
                        return JsonNodeFactory.instance.textNode(typed);
                    }
                }, value -> text.setText(value == null ? "" : value.isTextual() ? value.asText() : value.toString()));
            }
            case "boolean" -> {
                CheckBox box = new CheckBox();
                box.setAccessibleText(name);
                box.selectedProperty().addListener((o, was, now) -> write(name));
                return new Field(box, () -> JsonNodeFactory.instance.booleanNode(box.isSelected()),
                        value -> box.setSelected(value != null && value.asBoolean()));
            }
            default -> {
                return null;
            }
        }
    }

    /**
     * The value of the field the person changed written into the JSON; every other member stays as it is (a
     * one-line field cannot hold a multi-line value, so it never writes one it did not change).
     */
    private void write(String name) {
        if (writing) {
            return;
        }
        ObjectNode arguments;
        try {
            JsonNode parsed = Json.mapper().readTree(edit.jsonProperty().get());
            arguments = parsed != null && parsed.isObject() ? (ObjectNode) parsed : edit.modelArguments();
        } catch (Exception e) {
            arguments = edit.modelArguments();
        }
        JsonNode value = fields.get(name).value().get();
        if (value == null) {
            arguments.remove(name);
        } else {
            arguments.set(name, value);
        }
        writing = true;
        try {
            edit.jsonProperty().set(CallEdit.pretty(arguments));
        } finally {
            writing = false;
        }
    }

    /** Shows the JSON's values in the form, when the JSON reads as an object. */
    private void showInForm(String json) {
        JsonNode parsed;
        try {
            parsed = Json.mapper().readTree(json);
        } catch (Exception e) {
            return;
        }
        if (parsed == null || !parsed.isObject()) {
            return;
        }
        writing = true;
        try {
            fields.forEach((name, field) -> field.show().accept(parsed.get(name)));
        } finally {
            writing = false;
        }
    }

    CallEdit edit() {
        return edit;
    }
}
