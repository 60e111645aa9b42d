package io.countersign.console.input;

import io.countersign.console.common.Messages;
import javafx.application.Platform;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * A server's question as a card: who asks, the server's message set apart as words from outside, the form with
 * the input card's fields, and Submit, Decline and Cancel.
 */
final class AskedQuestionCard extends VBox {
    AskedQuestionCard(AskedQuestionItem item, Messages messages) {
        getStyleClass().add("asked-card");
        setSpacing(8);
        Label heading = new Label(item.heading());
        heading.getStyleClass().add("asked-heading");
        heading.setWrapText(true);
        // a wrapped label in a box is cut to one line unless it may be as tall as its text
        heading.setMinHeight(Region.USE_PREF_SIZE);
        getChildren().add(heading);
        if (!item.message().isBlank()) {
            Label source = new Label(messages.get("asked.outsideText"));
            source.getStyleClass().add("input-help");
            Label message = new Label(item.message());
            message.getStyleClass().add("outside-text");
            message.setWrapText(true);
            message.setMinHeight(Region.USE_PREF_SIZE);
            getChildren().addAll(source, message);
        }
        BooleanBinding editable = Bindings.createBooleanBinding(() -> !item.busyProperty().get(),
                item.busyProperty());
        VBox form = new VBox(10);
        form.getStyleClass().add("input-form");
        for (InputFieldItem field : item.form().fields()) {
            form.getChildren().add(new InputFieldRow(field, messages, editable));
        }
        getChildren().add(form);
        item.form().firstErrorProperty().addListener((o, was, now) -> {
            int index = item.form().fields().indexOf(now);
            if (index >= 0) {
                Platform.runLater(() -> ((InputFieldRow) form.getChildren().get(index)).control().requestFocus());
            }
        });

        Label problem = new Label();
        problem.getStyleClass().add("input-error");
        problem.setWrapText(true);
        problem.textProperty().bind(item.problemProperty());
        problem.visibleProperty().bind(item.problemProperty().isNotEmpty());
        problem.managedProperty().bind(problem.visibleProperty());

        Button submit = button(messages.get("asked.submit"), "asked-submit", item::submit, editable);
        submit.getStyleClass().add("accent");
        Button decline = button(messages.get("asked.decline"), "asked-decline", item::decline, editable);
        Button cancel = button(messages.get("asked.cancel"), "asked-cancel", item::cancel, editable);
        FlowPane buttons = new FlowPane(6, 6, submit, decline, cancel);
        getChildren().addAll(problem, buttons);
    }

    private static Button button(String text, String styleClass, Runnable action, BooleanBinding editable) {
        Button button = new Button(text);
        button.getStyleClass().add(styleClass);
        button.setMinWidth(Button.USE_PREF_SIZE);
        button.setOnAction(event -> action.run());
        button.disableProperty().bind(editable.not());
        return button;
    }
}
