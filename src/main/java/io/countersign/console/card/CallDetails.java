package io.countersign.console.card;

import io.countersign.console.common.Messages;
import io.countersign.engine.call.ToolInvocationTarget;
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

    /** The most lines the arguments take before they scroll. */
    private static final int MOST_LINES = 16;

    /**
     * The call's arguments under "Arguments", folded away unless {@code expanded}: readable text (see
     * {@link ArgumentsText}), as tall as it is up to {@link #MOST_LINES} lines, wrapped rather than scrolled sideways.
     */
    static Node arguments(String argumentsJson, boolean expanded, Messages messages) {
        String text = ArgumentsText.of(argumentsJson);
        TextArea arguments = new TextArea(text);
        arguments.setEditable(false);
        arguments.setWrapText(true);
        arguments.getStyleClass().addAll("call-arguments", "mono");
        arguments.setPrefRowCount((int) Math.min(MOST_LINES, Math.max(1, text.lines().count())));
        TitledPane folded = new TitledPane(messages.get("card.arguments"), arguments);
        folded.setExpanded(expanded);
        folded.setAnimated(false);
        folded.getStyleClass().add("call-arguments-pane");
        return folded;
    }
}
