package io.countersign.console.denials;

import io.countersign.console.common.Messages;
import java.util.Objects;
import javafx.scene.Node;
import javafx.scene.control.Alert;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.Spinner;
import javafx.scene.layout.VBox;

/** The two questions before a purge: how old, and, once counted, whether to delete that many events. */
final class PurgeDialogs {
    private final EventPurge purge;
    private final Messages messages;
    private final Node owner;

    /** @param owner a node of the window the dialogs belong to */
    PurgeDialogs(EventPurge purge, Messages messages, Node owner) {
        this.purge = Objects.requireNonNull(purge, "purge");
        this.messages = Objects.requireNonNull(messages, "messages");
        this.owner = Objects.requireNonNull(owner, "owner");
    }

    /** Asks how old, says how many events that deletes, and purges only once the person confirms. */
    void ask() {
        Dialog<Integer> ask = new Dialog<>();
        ask.initOwner(owner.getScene().getWindow());
        ask.setTitle(messages.get("denials.purge.title"));
        ask.setHeaderText(messages.get("denials.purge.ask"));
        Spinner<Integer> days = new Spinner<>(1, 36_500, 90);
        days.setEditable(true);
        days.setId("purgeDays");
        ask.getDialogPane().setContent(new VBox(8, new Label(messages.get("denials.purge.days")), days));
        ButtonType countThem = new ButtonType(messages.get("denials.purge.count"), ButtonBar.ButtonData.NEXT_FORWARD);
        ask.getDialogPane().getButtonTypes().setAll(ButtonType.CANCEL, countThem);
        ask.setResultConverter(button -> button == countThem ? typedDays(days) : null);
        ask.showAndWait().ifPresent(chosen -> purge.countOlderThan(chosen, count -> confirmPurge(chosen, count)));
    }

    /** The days typed into the spinner, which commits its text only on Enter; text that is no number keeps the value. */
    private static int typedDays(Spinner<Integer> days) {
        try {
            days.getValueFactory().setValue(Integer.parseInt(days.getEditor().getText().strip()));
        } catch (NumberFormatException e) {
            days.getEditor().setText(String.valueOf(days.getValue()));
        }
        return days.getValue();
    }

    private void confirmPurge(int days, long count) {
        Alert confirm = new Alert(Alert.AlertType.CONFIRMATION, messages.get("denials.purge.confirm", count, days),
                ButtonType.CANCEL, ButtonType.OK);
        confirm.initOwner(owner.getScene().getWindow());
        confirm.setTitle(messages.get("denials.purge.title"));
        confirm.setHeaderText(messages.get("denials.purge.header", count));
        Button delete = (Button) confirm.getDialogPane().lookupButton(ButtonType.OK);
        delete.setText(messages.get("denials.purge.ok", count));
        delete.setDefaultButton(false);
        // nothing to delete: nothing to confirm
        delete.setDisable(count == 0);
        ((Button) confirm.getDialogPane().lookupButton(ButtonType.CANCEL)).setDefaultButton(true);
        if (confirm.showAndWait().filter(ButtonType.OK::equals).isPresent() && count > 0) {
            purge.purge(days);
        }
    }
}
