package io.countersign.console;

import java.util.ArrayList;
import java.util.List;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.control.ButtonBase;
import javafx.scene.control.ComboBoxBase;
import javafx.scene.control.Labeled;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.TextInputControl;
import javafx.scene.text.Text;

/**
 * What can be checked of a scene's layout without looking at it: every visible control outside a scrolling
 * area lies inside the window, and no button shows its words cut short.
 */
final class LayoutCheck {
    /** Rounding of fractional layout positions. */
    private static final double TOLERANCE = 1.5;

    private LayoutCheck() {
    }

    /** Each control of the scene that is cut by the window's edge or whose label is cut short, described. */
    static List<String> clipped(Scene scene) {
        List<String> found = new ArrayList<>();
        visit(scene.getRoot(), scene, found);
        return found;
    }

    private static void visit(Node node, Scene scene, List<String> found) {
        if (!node.isVisible() || node.getOpacity() == 0) {
            return;
        }
        // a scrolling area (ScrollPane, and the lists and tables, whose cells scroll) holds what lies outside on
        // purpose; its own box must still fit
        boolean scrolls = node instanceof ScrollPane || node.getStyleClass().contains("virtual-flow");
        if (node instanceof ButtonBase || node instanceof ComboBoxBase || node instanceof TextInputControl
                || scrolls) {
            Bounds bounds = node.localToScene(node.getLayoutBounds());
            if (bounds.getWidth() > 0 && (bounds.getMinX() < -TOLERANCE || bounds.getMinY() < -TOLERANCE
                    || bounds.getMaxX() > scene.getWidth() + TOLERANCE
                    || bounds.getMaxY() > scene.getHeight() + TOLERANCE)) {
                found.add(describe(node) + " lies at " + bounds + " outside the window of " + scene.getWidth() + "×"
                        + scene.getHeight());
            }
        }
        if (node instanceof ButtonBase button && cutShort(button)) {
            found.add(describe(node) + " shows its text cut short");
        }
        if (!scrolls && node instanceof Parent parent) {
            parent.getChildrenUnmodifiable().forEach(child -> visit(child, scene, found));
        }
    }

    private static boolean cutShort(Labeled labeled) {
        String text = labeled.getText();
        if (text == null || text.isEmpty()) {
            return false;
        }
        Node shown = labeled.lookup(".text");
        return shown instanceof Text drawn && !drawn.getText().equals(text);
    }

    private static String describe(Node node) {
        String text = node instanceof Labeled labeled ? " \"" + labeled.getText() + "\"" : "";
        String id = node.getId() == null ? "" : "#" + node.getId();
        return node.getClass().getSimpleName() + id + node.getStyleClass() + text;
    }
}
