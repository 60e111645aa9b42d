package io.countersign.console.controls;

import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

/** A toast: an icon, a sentence, an optional link (such as "Open timeline"), and a close button. */
public final class ToastView extends HBox {
    private final Hyperlink link = new Hyperlink();
    private final Button close = new Button();

    public ToastView(Feather icon, String text) {
        getStyleClass().add("toast");
        setAlignment(Pos.CENTER_LEFT);
        setSpacing(8);
        setMaxWidth(USE_PREF_SIZE);
        Label label = new Label(text);
        label.setWrapText(true);
        label.getStyleClass().add("toast-text");
        HBox.setHgrow(label, Priority.ALWAYS);
        link.getStyleClass().add("toast-link");
        link.setMinWidth(USE_PREF_SIZE);
        link.setVisible(false);
        link.setManaged(false);
        close.setGraphic(new FontIcon(Feather.X));
        close.getStyleClass().addAll("toast-close", "flat");
        close.setFocusTraversable(false);
        close.setMinWidth(USE_PREF_SIZE);
        FontIcon mark = new FontIcon(icon);
        mark.getStyleClass().add("toast-icon");
        getChildren().addAll(mark, label, link, close);
    }

    /** Adds a link to the toast. */
    public void setLink(String text, Runnable action) {
        link.setText(text);
        link.setOnAction(event -> action.run());
        link.setVisible(true);
        link.setManaged(true);
    }

    /** What the close button does. */
    public void setOnClose(Runnable action) {
        close.setOnAction(event -> action.run());
    }
}
