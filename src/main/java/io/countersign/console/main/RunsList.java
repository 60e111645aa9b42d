package io.countersign.console.main;

import io.countersign.console.common.Messages;
import io.countersign.console.timeline.RunsViewModel;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.port.RunSummary;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import javafx.beans.binding.Bindings;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.TextField;
import javafx.scene.layout.VBox;
import javafx.util.StringConverter;

/**
 * The Runs list beside the detail pane: the recent runs, narrowed by a search and a status like the inbox, a click
 * opening a run's timeline.
 */
final class RunsList {
    private final ListView<RunSummary> list;

    /**
     * @param filters      the search field and the status choice above the list
     * @param openTimeline shows a run's timeline, given its id
     */
    RunsList(ListView<RunSummary> list, Filters filters, RunsViewModel runs, Messages messages,
             Consumer<String> openTimeline) {
        this.list = Objects.requireNonNull(list, "list");
        list.setItems(runs.visibleRuns());
        filters.search().textProperty().bindBidirectional(runs.searchProperty());
        List<RunStatus> statuses = new ArrayList<>();
        statuses.add(null);
        statuses.addAll(List.of(RunStatus.values()));
        filters.status().getItems().setAll(statuses);
        filters.status().setConverter(new StringConverter<>() {
            @Override
            public String toString(RunStatus status) {
                return status == null ? messages.get("runs.filter.anyStatus") : status.code().replace('_', ' ');
            }

            @Override
            public RunStatus fromString(String text) {
                throw new UnsupportedOperationException("the status is picked, not typed");
            }
        });
        filters.status().valueProperty().bindBidirectional(runs.statusProperty());
        filters.placeholder().textProperty().bind(Bindings.when(Bindings.isEmpty(runs.runs()))
                .then(messages.get("runs.empty")).otherwise(messages.get("runs.noMatch")));
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

    /** The controls above and in the list that narrow it. */
    record Filters(TextField search, ComboBox<RunStatus> status, Label placeholder) {
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
