package io.countersign.console.controls;

import java.util.List;
import javafx.scene.control.Label;
import javafx.scene.layout.VBox;

/**
 * A preview shown as a diff: monospace lines, added lines green, removed lines red, hunk headers muted. Lines
 * that are no diff at all show plain.
 */
public final class DiffView extends VBox {

    public DiffView() {
        getStyleClass().add("diff-view");
    }

    /** Shows these lines. */
    public void setLines(List<String> lines) {
        getChildren().setAll(lines.stream().map(DiffView::line).toList());
    }

    private static Label line(String text) {
        Label line = new Label(text.isEmpty() ? " " : text);
        line.getStyleClass().addAll("diff-line", styleOf(text));
        line.setMaxWidth(Double.MAX_VALUE);
        line.setWrapText(true);
        return line;
    }

    private static String styleOf(String text) {
        if (text.startsWith("+++") || text.startsWith("---") || text.startsWith("@@")) {
            return "diff-meta";
        }
        if (text.startsWith("+")) {
            return "diff-added";
        }
        if (text.startsWith("-")) {
            return "diff-removed";
        }
        return "diff-context";
    }
}
