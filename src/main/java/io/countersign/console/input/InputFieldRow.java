package io.countersign.console.input;

import io.countersign.console.common.Messages;
import io.countersign.engine.tool.InputField;
import javafx.beans.binding.BooleanBinding;
import javafx.css.PseudoClass;
import javafx.scene.Node;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Control;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;

/**
 * One field of an input form: label with a required mark, the control for the field's type, the help text,
 * the model's guess as a hint, and the error under it all.
 */
final class InputFieldRow extends VBox {
    /** The theme's state for a control whose value is wrong: a red border. */
    private static final PseudoClass DANGER = PseudoClass.getPseudoClass("danger");
    private final Control control;

    InputFieldRow(InputFieldItem item, Messages messages, BooleanBinding editable) {
        InputField field = item.field();
        getStyleClass().add("input-row");
        setSpacing(4);

        Label label = new Label(field.label());
        label.getStyleClass().add("input-label");
        HBox labelLine = new HBox(4, label);
        if (field.required()) {
            Label mark = new Label("*");
            mark.getStyleClass().add("required-mark");
            mark.setAccessibleText(messages.get("input.required"));
            labelLine.getChildren().add(mark);
        }
        control = control(item, messages);
        control.disableProperty().bind(editable.not());
        control.setAccessibleText(field.label());
        label.setLabelFor(control);
        getChildren().addAll(labelLine, control);

        if (!field.description().isBlank()) {
            Label help = new Label(field.description());
            help.getStyleClass().add("input-help");
            help.setWrapText(true);
            getChildren().add(help);
        }
        if (item.guess() != null && !(control instanceof TextField)) {
            Label hint = new Label(messages.get("input.guess", item.guess()));
            hint.getStyleClass().add("input-hint");
            hint.setWrapText(true);
            getChildren().add(hint);
        }
        Label error = new Label();
        error.getStyleClass().add("input-error");
        error.setWrapText(true);
        error.textProperty().bind(item.errorProperty());
        error.visibleProperty().bind(item.errorProperty().isNotEmpty());
        error.managedProperty().bind(error.visibleProperty());
        item.errorProperty().addListener((o, was, now) -> control.pseudoClassStateChanged(DANGER, !now.isEmpty()));
        getChildren().add(error);
    }

    private static Control control(InputFieldItem item, Messages messages) {
        InputField field = item.field();
        return switch (field.type()) {
            case STRING, NUMBER, INTEGER -> {
                TextField text = new TextField();
                text.textProperty().bindBidirectional(item.textProperty());
                text.setMaxWidth(field.type() == InputField.InputType.STRING ? Double.MAX_VALUE : 220);
                if (field.type() != InputField.InputType.STRING) {
                    text.getStyleClass().add("mono");
                }
                if (item.guess() != null) {
                    text.setPromptText(messages.get("input.guess", item.guess()));
                } else if (field.type() != InputField.InputType.STRING) {
                    text.setPromptText(messages.get(field.type() == InputField.InputType.INTEGER
                            ? "input.wholeNumber" : "input.number"));
                }
                yield text;
            }
            case BOOLEAN -> {
                CheckBox check = new CheckBox(messages.get("input.yes"));
                check.selectedProperty().bindBidirectional(item.checkedProperty());
                yield check;
            }
            case ENUM -> {
                ChoiceBox<String> choice = new ChoiceBox<>();
                choice.getItems().setAll(field.options());
                choice.valueProperty().bindBidirectional(item.choiceProperty());
                choice.setMinWidth(220);
                yield choice;
            }
        };
    }

    /** The control the person types, ticks or chooses in. */
    Node control() {
        return control;
    }
}
