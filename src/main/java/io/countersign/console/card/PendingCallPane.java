package io.countersign.console.card;

import javafx.scene.control.Button;

import io.countersign.console.common.Messages;
import io.countersign.console.controls.Badge;
import io.countersign.console.controls.DiffView;
import io.countersign.engine.tool.ToolEffect;
import io.countersign.service.RunCard.PendingCallView;
import javafx.beans.binding.BooleanBinding;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.ToggleGroup;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

/**
 * One waiting call, top to bottom as a person decides it: number, tool and badges with the verdict toggle,
 * the target, the preview as a diff, and the arguments folded away.
 */
final class PendingCallPane extends VBox {
    private final ToggleButton approve;
    private final ToggleButton deny;

    PendingCallPane(PendingCallItem item, Messages messages, BooleanBinding editable) {
        PendingCallView call = item.call();
        getStyleClass().add("call-pane");
        setSpacing(8);

        Label number = new Label(Integer.toString(item.position()));
        number.getStyleClass().add("call-number");
        number.setMinWidth(Region.USE_PREF_SIZE);
        Label tool = new Label(call.tool());
        tool.getStyleClass().addAll("call-tool", "mono");
        tool.setMinWidth(Region.USE_PREF_SIZE);
        // the badges sit under the tool's name and wrap when the card is narrow, so the head never outgrows the
        // card, also for a gateway's long server-prefixed names (its Edit button reads "Cancel edit" while an edit
        // is open)
        FlowPane badges = new FlowPane(4, 4);
        badges.setAlignment(Pos.CENTER_LEFT);
        if (call.effect() == ToolEffect.WRITE) {
            badges.getChildren().add(new Badge(messages.get("badge.write"), Badge.Kind.WRITE));
        }
        if (call.remote()) {
            badges.getChildren().add(new Badge(messages.get("badge.remote"), Badge.Kind.REMOTE));
        }
        if (call.dataClass() != null) {
            badges.getChildren().add(new Badge(call.dataClass().code(), Badge.Kind.DATA));
        }
        if (call.stale()) {
            badges.getChildren().add(new Badge(messages.get("badge.stale"), Badge.Kind.STALE));
        }
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);

        ToggleGroup verdict = new ToggleGroup();
        approve = new ToggleButton(messages.get("card.approve"), new FontIcon(Feather.CHECK));
        approve.getStyleClass().addAll("verdict-approve", "left-pill");
        approve.setToggleGroup(verdict);
        approve.setAccessibleText(messages.get("card.approveCall", item.position(), call.tool()));
        deny = new ToggleButton(messages.get("card.deny"), new FontIcon(Feather.X));
        deny.getStyleClass().addAll("verdict-deny", "right-pill");
        deny.setToggleGroup(verdict);
        deny.setAccessibleText(messages.get("card.denyCall", item.position(), call.tool()));
        approve.disableProperty().bind(editable.not());
        deny.disableProperty().bind(editable.not());
        HBox toggle = new HBox(approve, deny);
        toggle.setMinWidth(Region.USE_PREF_SIZE);
        showVerdict(item.verdict());
        item.verdictProperty().addListener((o, was, now) -> showVerdict(now));
        verdict.selectedToggleProperty().addListener((o, was, now) -> item.verdictProperty().set(
                now == approve ? Verdict.APPROVE : now == deny ? Verdict.DENY : Verdict.UNDECIDED));

        CallEdit edit = item.edit();
        Button editButton = new Button(messages.get("card.edit"), new FontIcon(Feather.EDIT_2));
        editButton.getStyleClass().add("edit-call");
        editButton.setAccessibleText(messages.get("card.edit.editCall", item.position(), call.tool()));
        editButton.disableProperty().bind(editable.not());
        editButton.setMinWidth(Region.USE_PREF_SIZE);
        editButton.setOnAction(event -> {
            if (edit.openProperty().get()) {
                edit.cancel();
            } else {
                edit.start();
            }
        });
        editButton.textProperty().bind(javafx.beans.binding.Bindings.when(edit.openProperty())
                .then(messages.get("card.edit.cancel")).otherwise(messages.get("card.edit")));

        VBox named = new VBox(4, tool, badges);
        if (call.declaration() != null) {
            // what Countersign knows of a remote call's effect is its declaration; the server's claims beside it
            Label declared = new Label(call.serverClaims().isEmpty() ? call.effectText()
                    : messages.get("card.remoteClaims", call.effectText(), call.serverClaims()));
            declared.getStyleClass().add("call-declaration");
            declared.setWrapText(true);
            named.getChildren().add(declared);
        }
        if (call.askedBy() != null) {
            // the tool would run without a person; the card says which rule asked for one
            Label asked = new Label(messages.get("card.askedBy", call.askedBy()));
            asked.getStyleClass().add("call-asked-by");
            asked.setWrapText(true);
            named.getChildren().add(asked);
        }
        HBox.setHgrow(named, Priority.SOMETIMES);
        HBox head = new HBox(10, number, named, spacer, editButton, toggle);
        head.setAlignment(Pos.CENTER_LEFT);
        getChildren().add(head);

        getChildren().addAll(CallDetails.target(call.target(), messages));
        if (!call.preview().isEmpty()) {
            DiffView preview = new DiffView();
            preview.setLines(call.preview());
            getChildren().add(preview);
        }
        getChildren().add(CallDetails.arguments(call.argumentsJson(), false, messages));
        CallEditPane editPane = new CallEditPane(edit, messages);
        editPane.visibleProperty().bind(edit.openProperty());
        editPane.managedProperty().bind(edit.openProperty());
        getChildren().add(editPane);
        updateStyle(item.verdict());
        item.verdictProperty().addListener((o, was, now) -> updateStyle(now));
    }

    private void showVerdict(Verdict verdict) {
        approve.setSelected(verdict == Verdict.APPROVE);
        deny.setSelected(verdict == Verdict.DENY);
    }

    private void updateStyle(Verdict verdict) {
        getStyleClass().removeAll("call-approved", "call-denied");
        if (verdict == Verdict.APPROVE) {
            getStyleClass().add("call-approved");
        } else if (verdict == Verdict.DENY) {
            getStyleClass().add("call-denied");
        }
    }
}
