package io.countersign.console.common;

import javafx.beans.value.ObservableStringValue;
import javafx.scene.Node;
import javafx.scene.control.Label;

/** A label for a message that comes and goes, such as a pane's problem or status. */
public final class ShownText {
    private ShownText() {
    }

    /** The label shows the text, and takes no room while it is empty. */
    public static void bind(Label label, ObservableStringValue text) {
        label.textProperty().bind(text);
        label.visibleProperty().bind(label.textProperty().isNotEmpty());
        label.managedProperty().bind(label.visibleProperty());
    }

    /**
     * A pane's feedback: its problem in {@code problem}, inside {@code problemBox}, which takes no room while there
     * is none, and its status in {@code status}.
     */
    public static void bind(Node problemBox, Label problem, Label status, PaneFeedback feedback) {
        problem.textProperty().bind(feedback.problemProperty());
        problemBox.visibleProperty().bind(feedback.problemProperty().isNotEmpty());
        problemBox.managedProperty().bind(problemBox.visibleProperty());
        bind(status, feedback.statusProperty());
    }
}
