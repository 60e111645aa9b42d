package io.countersign.console.card;

import io.countersign.console.common.Messages;
import io.countersign.service.RunCard.RefusedCallView;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

/**
 * A call a rule refused before the card was shown: muted, with the rule and reason code, and the rule's
 * explanation in an information call-out. Nobody has to act on it, but everybody sees it.
 */
final class RefusedCallPane extends VBox {

    RefusedCallPane(RefusedCallView call, int position, Messages messages) {
        getStyleClass().add("refused-pane");
        setSpacing(8);
        Label number = new Label(Integer.toString(position));
        number.getStyleClass().add("call-number");
        number.setMinWidth(Region.USE_PREF_SIZE);
        Label tool = new Label(call.tool());
        tool.getStyleClass().addAll("call-tool", "mono");
        tool.setMinWidth(Region.USE_PREF_SIZE);
        Label rule = new Label(messages.get("card.refusedRule", call.rule(), call.reason()));
        rule.getStyleClass().addAll("refused-rule", "mono");
        rule.setWrapText(true);
        HBox head = new HBox(10, number, tool, rule);
        head.setAlignment(Pos.BASELINE_LEFT);

        FontIcon icon = new FontIcon(Feather.INFO);
        icon.getStyleClass().add("callout-icon");
        VBox text = new VBox(2);
        if (call.explanation() != null && !call.explanation().isBlank()) {
            Label explanation = new Label(call.explanation());
            explanation.setWrapText(true);
            explanation.getStyleClass().add("callout-text");
            text.getChildren().add(explanation);
        }
        Label consequence = new Label(messages.get("card.refusedConsequence"));
        consequence.setWrapText(true);
        consequence.getStyleClass().add("callout-consequence");
        text.getChildren().add(consequence);
        HBox callout = new HBox(8, icon, text);
        callout.getStyleClass().add("callout");
        getChildren().add(head);
        getChildren().addAll(CallDetails.target(call.target(), messages));
        // open: a refused call asks nothing of the person, so what it tried to do is what there is to read (a path
        // outside every workspace has no target, and shows only in the arguments)
        getChildren().add(CallDetails.arguments(call.argumentsJson(), true, messages));
        getChildren().add(callout);
    }
}
