package io.countersign.console.inbox;

import io.countersign.console.common.Messages;
import io.countersign.console.controls.Badge;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.port.WaitingRun;
import javafx.beans.InvalidationListener;
import javafx.beans.WeakInvalidationListener;
import javafx.collections.SetChangeListener;
import javafx.collections.WeakSetChangeListener;
import javafx.css.PseudoClass;
import javafx.geometry.Pos;
import javafx.scene.control.ContentDisplay;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.input.MouseEvent;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * One line of the inbox: agent and how long it has waited, the first tool with its badges, who started it and
 * what they asked. The waiting time follows the live clock.
 */
final class InboxCell extends ListCell<WaitingRun> {
    private static final PseudoClass PICKED = PseudoClass.getPseudoClass("picked");
    private final InboxViewModel viewModel;
    private final Messages messages;
    private final Label agent = new Label();
    private final Label waiting = new Label();
    private final Label tool = new Label();
    private final HBox badges = new HBox(4);
    private final Label who = new Label();
    private final VBox graphic;
    private final InvalidationListener clockListener = observable -> showWaiting();
    private final InboxSelection selection;
    private final Label picked = new Label("\u2713");
    private final SetChangeListener<String> pickedListener = change -> showPicked();

    InboxCell(InboxViewModel viewModel, Messages messages, InboxSelection selection) {
        this.viewModel = viewModel;
        this.messages = messages;
        this.selection = selection;
        picked.getStyleClass().add("inbox-picked");
        picked.setMinWidth(Region.USE_PREF_SIZE);
        selection.chosen().addListener(new WeakSetChangeListener<>(pickedListener));
        // Shift-click picks the range from the last picked card to this one, and opens nothing
        addEventFilter(MouseEvent.MOUSE_PRESSED, event -> {
            if (event.isShiftDown() && getItem() != null) {
                selection.extendTo(getItem());
                event.consume();
            }
        });
        getStyleClass().add("inbox-cell");
        agent.getStyleClass().add("inbox-agent");
        agent.setMinWidth(0);
        waiting.getStyleClass().add("inbox-waiting");
        waiting.setMinWidth(Region.USE_PREF_SIZE);
        tool.getStyleClass().addAll("inbox-tool", "mono");
        tool.setMinWidth(0);
        badges.setAlignment(Pos.CENTER_LEFT);
        who.getStyleClass().add("inbox-who");
        who.setMinWidth(0);
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        HBox top = new HBox(8, picked, agent, spacer, waiting);
        top.setAlignment(Pos.BASELINE_LEFT);
        HBox middle = new HBox(6, tool, badges);
        middle.setAlignment(Pos.CENTER_LEFT);
        graphic = new VBox(3, top, middle, who);
        graphic.setMinWidth(0);
        graphic.setPrefWidth(0);
        setContentDisplay(ContentDisplay.GRAPHIC_ONLY);
        viewModel.clock().nowProperty().addListener(new WeakInvalidationListener(clockListener));
    }

    @Override
    protected void updateItem(WaitingRun run, boolean empty) {
        super.updateItem(run, empty);
        showPicked();
        if (empty || run == null) {
            setGraphic(null);
            setAccessibleText(null);
            return;
        }
        agent.setText(run.agent());
        boolean input = run.status() == RunStatus.WAITING_FOR_INPUT;
        tool.setText(run.firstTool() == null ? "" : run.firstTool());
        badges.getChildren().clear();
        if (run.damaged()) {
            // nothing of a damaged run can be shown but that it is damaged, and how to end it
            tool.setText(messages.get("inbox.damaged", run.runId()));
            badges.getChildren().add(new Badge(messages.get("badge.damaged"), Badge.Kind.REFUSED));
        }
        if (input) {
            badges.getChildren().add(new Badge(messages.get("badge.input"), Badge.Kind.INPUT));
        }
        if (run.hasWrite()) {
            badges.getChildren().add(new Badge(messages.get("badge.write"), Badge.Kind.WRITE));
        }
        if (run.hasRemote()) {
            badges.getChildren().add(new Badge(messages.get("badge.remote"), Badge.Kind.REMOTE));
        }
        if (run.pendingCount() > 1) {
            badges.getChildren().add(new Badge(messages.get("badge.calls", run.pendingCount()), Badge.Kind.NEUTRAL));
        }
        if (run.refusedCount() > 0) {
            badges.getChildren().add(new Badge(messages.get("badge.refused", run.refusedCount()),
                    Badge.Kind.REFUSED));
        }
        who.setText(messages.get("inbox.who", run.initiator(), oneLine(run.prompt())));
        showWaiting();
        setGraphic(graphic);
    }

    private void showPicked() {
        boolean chosen = !isEmpty() && getItem() != null && selection.isSelected(getItem().runId());
        pseudoClassStateChanged(PICKED, chosen);
        picked.setVisible(chosen);
        picked.setManaged(chosen);
    }

    private void showWaiting() {
        WaitingRun run = getItem();
        if (run != null && !isEmpty()) {
            waiting.setText(viewModel.waitingFor(run));
            setAccessibleText(run.agent() + ", " + waiting.getText() + ", " + tool.getText());
        }
    }

    private static String oneLine(String text) {
        if (text == null) {
            return "";
        }
        String line = text.strip().replaceAll("\\s+", " ");
        return line.length() <= 120 ? line : line.substring(0, 119) + "…";
    }
}
