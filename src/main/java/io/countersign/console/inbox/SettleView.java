package io.countersign.console.inbox;

import io.countersign.console.common.Messages;
import io.countersign.engine.port.RunSummary;
import javafx.collections.ListChangeListener;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * The runs to settle, under the inbox's list: a row per run with what it was and the two ways to settle it. It takes
 * no room when no run needs settling.
 */
public final class SettleView extends VBox {
    private final Label title = new Label();
    private final VBox rows = new VBox(6);
    private final Label problem = new Label();

    public SettleView() {
        getStyleClass().add("to-settle");
        setSpacing(6);
        title.getStyleClass().add("to-settle-title");
        title.setWrapText(true);
        title.setMinHeight(Region.USE_PREF_SIZE);
        problem.getStyleClass().add("to-settle-problem");
        problem.setWrapText(true);
        problem.managedProperty().bind(problem.visibleProperty());
        getChildren().setAll(title, rows, problem);
        managedProperty().bind(visibleProperty());
        setVisible(false);
    }

    /** Shows the view model's runs from now on. */
    public void show(SettleViewModel viewModel, Messages messages) {
        Runnable build = () -> {
            title.setText(messages.get("settle.title", viewModel.toSettle().size()));
            rows.getChildren().setAll(viewModel.toSettle().stream().map(run -> row(run, viewModel, messages))
                    .toList());
            setVisible(!viewModel.toSettle().isEmpty() || !viewModel.problemProperty().get().isEmpty());
        };
        viewModel.toSettle().addListener((ListChangeListener<RunSummary>) change -> build.run());
        problem.textProperty().bind(viewModel.problemProperty());
        problem.visibleProperty().bind(viewModel.problemProperty().isNotEmpty());
        viewModel.problemProperty().addListener((o, was, now) -> build.run());
        build.run();
    }

    /** A run to settle: what it is, then its two buttons (for those who may settle). */
    private static VBox row(RunSummary run, SettleViewModel viewModel, Messages messages) {
        Label what = new Label(viewModel.describe(run));
        what.getStyleClass().add("to-settle-run");
        what.setWrapText(true);
        what.setMinHeight(Region.USE_PREF_SIZE);
        VBox row = new VBox(4, what);
        row.getStyleClass().add("to-settle-row");
        row.setUserData(run.runId());
        if (viewModel.maySettle()) {
            row.getChildren().add(new HBox(8, button(messages.get("settle.retry"), "settle-retry",
                    () -> viewModel.settle(run.runId(), true)), button(messages.get("settle.fail"), "settle-fail",
                    () -> viewModel.settle(run.runId(), false))));
        }
        return row;
    }

    private static Button button(String text, String style, Runnable action) {
        Button button = new Button(text);
        button.getStyleClass().add(style);
        // the pane may be narrow: the words stay whole, the description wraps instead
        button.setMinWidth(Region.USE_PREF_SIZE);
        button.setOnAction(event -> action.run());
        return button;
    }
}
