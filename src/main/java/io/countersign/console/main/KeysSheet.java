package io.countersign.console.main;

import io.countersign.console.common.Messages;
import io.countersign.console.common.Theme;
import java.util.Objects;
import java.util.function.Supplier;
import javafx.geometry.Insets;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.VBox;
import javafx.stage.Modality;
import javafx.stage.Stage;
import javafx.stage.Window;

/** The cheat sheet ({@code ?}): every key of the window and what it does, read from {@link Shortcut.Action}. */
final class KeysSheet {
    private final Messages messages;
    private final Supplier<Theme> theme;
    private Stage stage;

    /** @param theme the window's theme as it is now, which the sheet follows each time it opens */
    KeysSheet(Messages messages, Supplier<Theme> theme) {
        this.messages = Objects.requireNonNull(messages, "messages");
        this.theme = Objects.requireNonNull(theme, "theme");
    }

    /** Shows the sheet over the window; Esc, Enter or Close takes it away. */
    void show(Window owner) {
        if (stage == null) {
            stage = build(owner);
        }
        theme.get().apply(stage.getScene());
        stage.show();
        stage.getScene().getRoot().lookup(".keys-close").requestFocus();
    }

    private Stage build(Window owner) {
        GridPane keys = new GridPane();
        keys.getStyleClass().add("keys-grid");
        keys.setHgap(16);
        keys.setVgap(6);
        Shortcut.Action[] actions = Shortcut.Action.values();
        for (int row = 0; row < actions.length; row++) {
            Label key = new Label(actions[row].keyName());
            key.getStyleClass().addAll("key-cap", "mono");
            keys.addRow(row, key, new Label(messages.get(actions[row].messageKey())));
        }
        Label title = new Label(messages.get("keys.title"));
        title.getStyleClass().add("title-3");
        Button close = new Button(messages.get("keys.close"));
        close.getStyleClass().add("keys-close");
        // a scene of its own, without the window's shortcuts: Enter and Esc only close it
        close.setDefaultButton(true);
        close.setCancelButton(true);
        VBox root = new VBox(14, title, keys, close);
        root.getStyleClass().add("keys-sheet");
        root.setPadding(new Insets(20));

        Stage sheet = new Stage();
        sheet.initOwner(owner);
        sheet.initModality(Modality.WINDOW_MODAL);
        sheet.setTitle(messages.get("keys.title"));
        sheet.setResizable(false);
        Scene scene = new Scene(root);
        close.setOnAction(event -> sheet.hide());
        sheet.setScene(scene);
        return sheet;
    }
}
