package io.countersign.console.opening;

import io.countersign.console.common.Messages;
import java.util.Objects;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.VBox;

/**
 * What the window shows before the console is there: that the store is opening, or why the console cannot
 * start, with a button that closes the window. Built in code: it is on screen before any view has loaded.
 */
public final class OpeningPane extends VBox {
    private final Messages messages;
    private final Label title = new Label();
    private final Label text = new Label();

    /** The opening state for a store, such as {@code ~/.local/share/countersign/countersign.db}. */
    public OpeningPane(Messages messages, String store) {
        this.messages = Objects.requireNonNull(messages, "messages");
        getStyleClass().addAll("empty-state", "opening");
        setAlignment(Pos.CENTER);
        setSpacing(12);
        title.getStyleClass().add("empty-title");
        title.setText(messages.get("opening.title"));
        text.getStyleClass().add("empty-text");
        text.setWrapText(true);
        text.setMaxWidth(640);
        text.setAlignment(Pos.CENTER);
        text.setText(messages.get("opening.store", store));
        getChildren().addAll(title, text);
    }

    /** Says why the console cannot start; the Close button (also Enter and Esc) runs {@code close}. */
    public void fail(String problem, Runnable close) {
        getStyleClass().add("opening-failed");
        title.setText(messages.get("opening.failed.title"));
        text.setText(problem);
        Button button = new Button(messages.get("opening.failed.close"));
        button.setDefaultButton(true);
        button.setCancelButton(true);
        button.setOnAction(event -> close.run());
        getChildren().add(button);
        button.requestFocus();
    }
}
