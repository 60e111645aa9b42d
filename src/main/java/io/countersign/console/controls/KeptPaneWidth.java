package io.countersign.console.controls;

import java.util.Objects;
import javafx.application.Platform;
import javafx.beans.property.DoubleProperty;
import javafx.scene.Node;
import javafx.scene.control.SplitPane;
import javafx.scene.input.MouseEvent;
import javafx.scene.layout.Region;

/**
 * Keeps one pane of a two-pane split at the width the person dragged it to: a narrower window squeezes it only as
 * far as the other pane's minimum needs, and a wider one gives the width back. Only a drag of the divider changes
 * the width wanted.
 */
public final class KeptPaneWidth {
    private final SplitPane split;
    private final Region pane;
    private final Region other;
    private final boolean first;
    private final DoubleProperty wanted;

    private KeptPaneWidth(SplitPane split, boolean first, DoubleProperty wanted) {
        this.split = split;
        this.first = first;
        this.pane = (Region) split.getItems().get(first ? 0 : 1);
        this.other = (Region) split.getItems().get(first ? 1 : 0);
        this.wanted = wanted;
    }

    /**
     * Keeps the first or the last pane of a split of two at the wanted width.
     *
     * @param wanted the width in pixels; set again whenever the person drags the divider
     */
    public static void keep(SplitPane split, boolean first, DoubleProperty wanted) {
        Objects.requireNonNull(wanted, "wanted");
        if (split.getItems().size() != 2) {
            throw new IllegalArgumentException("a kept width needs a split of two panes, got "
                    + split.getItems().size());
        }
        KeptPaneWidth kept = new KeptPaneWidth(split, first, wanted);
        // after the split's own layout for the new width, which moves its dividers by rules of its own
        split.widthProperty().addListener(o -> Platform.runLater(kept::fit));
        wanted.addListener(o -> kept.fit());
        split.addEventFilter(MouseEvent.MOUSE_RELEASED, event -> {
            if (onDivider(event.getTarget())) {
                Platform.runLater(() -> wanted.set(kept.pane.getWidth()));
            }
        });
    }

    private static boolean onDivider(Object target) {
        for (Node node = target instanceof Node start ? start : null; node != null; node = node.getParent()) {
            if (node.getStyleClass().contains("split-pane-divider")) {
                return true;
            }
            if (node instanceof SplitPane) {
                return false;
            }
        }
        return false;
    }

    private void fit() {
        double total = split.getWidth();
        if (total <= 0) {
            return;
        }
        double most = Math.min(pane.maxWidth(-1), total - other.minWidth(-1));
        double width = Math.max(pane.minWidth(-1), Math.min(wanted.get(), most));
        split.setDividerPosition(0, (first ? width : total - width) / total);
    }
}
