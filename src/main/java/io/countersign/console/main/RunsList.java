package io.countersign.console.main;

import io.countersign.console.timeline.RunsViewModel;
import io.countersign.service.RunSummary;
import java.util.Objects;
import java.util.function.Consumer;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.layout.VBox;

/** The Runs list beside the detail pane: the recent runs, a click opening a run's timeline. */
final class RunsList {
    private final ListView<RunSummary> list;

    /** @param openTimeline shows a run's timeline, given its id */
    RunsList(ListView<RunSummary> list, RunsViewModel runs, Consumer<String> openTimeline) {
        this.list = Objects.requireNonNull(list, "list");
        list.setItems(runs.runs());
        list.setCellFactory(view -> new RunCell(runs));
        list.getSelectionModel().selectedItemProperty().addListener((o, was, now) -> {
            if (now != null) {
                openTimeline.accept(now.runId());
            }
        });
    }

    /** Forgets the chosen run, so that choosing it again opens its timeline again. */
    void clearSelection() {
        list.getSelectionModel().clearSelection();
    }

    void focus() {
        list.requestFocus();
    }

    /** A line of the list: agent and run, then status, who started it and when. */
    private static final class RunCell extends ListCell<RunSummary> {
        private final RunsViewModel runs;
        private final Label title = new Label();
        private final Label details = new Label();
        private final Label prompt = new Label();
        private final VBox box = new VBox(2, title, details, prompt);

        RunCell(RunsViewModel runs) {
            this.runs = runs;
            title.getStyleClass().add("inbox-agent");
            details.getStyleClass().add("inbox-waiting");
            prompt.getStyleClass().add("inbox-who");
            box.setPrefWidth(0);
        }

        @Override
        protected void updateItem(RunSummary run, boolean empty) {
            super.updateItem(run, empty);
            if (empty || run == null) {
                setGraphic(null);
                return;
            }
            title.setText(runs.titleOf(run));
            details.setText(runs.detailsOf(run));
            prompt.setText(run.prompt());
            setGraphic(box);
        }
    }
}
