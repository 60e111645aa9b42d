package io.countersign.console.inbox;

import io.countersign.console.common.Messages;
import io.countersign.console.controls.Badge;
import io.countersign.engine.run.RunStatus;
import io.countersign.service.WaitingRun;
import javafx.beans.InvalidationListener;
import javafx.beans.WeakInvalidationListener;
import javafx.geometry.Pos;
import javafx.scene.control.ContentDisplay;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * One line of the inbox: agent and how long it has waited, the first tool with its badges, who started it and
 * what they asked. The waiting time follows the live clock.
 */
final class InboxCell extends ListCell<WaitingRun> {
    private final InboxViewModel viewModel;
    private final Messages messages;
    private final Label agent = new Label();
    private final Label waiting = new Label();
    private final Label tool = new Label();
    private final HBox badges = new HBox(4);
    private final Label who = new Label();
    private final VBox graphic;
    private final InvalidationListener clockListener = observable -> showWaiting();

    InboxCell(InboxViewModel viewModel, Messages messages) {
        this.viewModel = viewModel;
        this.messages = messages;
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
        HBox top = new HBox(8, agent, spacer, waiting);
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
