package io.countersign.console.card;

import io.countersign.console.common.Messages;
import io.countersign.engine.invocation.ToolInvocationTarget;
import java.util.List;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.control.TitledPane;

/** What every call on a card shows, waiting or refused: its target, if it has one, and its arguments. */
final class CallDetails {
    private CallDetails() {
    }

    /** The target line ("file ../old-draft.md"); none for a call without a target. */
    static List<Node> target(ToolInvocationTarget target, Messages messages) {
        if (target == null) {
            return List.of();
        }
        Label line = new Label(messages.get("card.target", target.kind(), target.identifier()));
        line.getStyleClass().addAll("call-target", "mono");
        line.setWrapText(true);
        return List.of(line);
    }

    /** The call's arguments under "Arguments", folded away unless {@code expanded}. */
    static Node arguments(String argumentsJson, boolean expanded, Messages messages) {
        TextArea arguments = new TextArea(argumentsJson);
        arguments.setEditable(false);
        arguments.setWrapText(false);
        arguments.getStyleClass().addAll("call-arguments", "mono");
        arguments.setPrefRowCount((int) Math.min(12, Math.max(2, argumentsJson.lines().count())));
        TitledPane folded = new TitledPane(messages.get("card.arguments"), arguments);
        folded.setExpanded(expanded);
        folded.setAnimated(false);
        folded.getStyleClass().add("call-arguments-pane");
        return folded;
    }
}
