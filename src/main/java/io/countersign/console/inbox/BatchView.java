package io.countersign.console.inbox;

import io.countersign.console.common.Messages;
import javafx.beans.binding.Bindings;
import javafx.collections.ListChangeListener;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.layout.VBox;

/**
 * The inbox's batch controls, wired to their view model: the bar under the list while cards are selected (how
 * many, one reason, Approve selected, Deny selected, Clear), and the panel that shows the summary and then the
 * result in place of the list.
 */
final class BatchView {
    /** The controls of inbox.fxml that make up the batch. */
    record Controls(Node list, VBox panel, Label title, VBox lines, Button confirm, Button back, VBox bar,
                    Label count, TextField reason, Label problem, Button approve, Button deny, Button clear) {
    }

    private BatchView() {
    }

    static void wire(Controls controls, BatchViewModel batch, Messages messages) {
        InboxSelection selection = batch.selection();
        var open = batch.stepProperty().isNotEqualTo(BatchViewModel.Step.CLOSED);
        controls.panel().visibleProperty().bind(open);
        controls.panel().managedProperty().bind(open);
        controls.list().visibleProperty().bind(open.not());
        controls.list().managedProperty().bind(open.not());
        var barShown = open.not().and(selection.countProperty().greaterThan(0));
        controls.bar().visibleProperty().bind(barShown);
        controls.bar().managedProperty().bind(barShown);

        controls.count().textProperty().bind(Bindings.createStringBinding(
                () -> messages.get("batch.selected", selection.countProperty().get()), selection.countProperty()));
        controls.reason().textProperty().bindBidirectional(batch.reasonProperty());
        controls.problem().textProperty().bind(batch.problemProperty());
        controls.problem().visibleProperty().bind(batch.problemProperty().isNotEmpty());
        controls.problem().managedProperty().bind(controls.problem().visibleProperty());
        controls.approve().setOnAction(event -> batch.prepare(true));
        controls.deny().setOnAction(event -> batch.prepare(false));
        controls.clear().setOnAction(event -> selection.clear());
        controls.approve().disableProperty().bind(batch.busyProperty());
        controls.deny().disableProperty().bind(batch.busyProperty());

        controls.title().textProperty().bind(batch.titleProperty());
        batch.lines().addListener((ListChangeListener<String>) change -> {
            controls.lines().getChildren().clear();
            for (String line : batch.lines()) {
                Label shown = new Label(line);
                shown.setWrapText(true);
                shown.getStyleClass().add("batch-line");
                controls.lines().getChildren().add(shown);
            }
        });
        controls.confirm().textProperty().bind(Bindings.createStringBinding(() -> messages.get(
                batch.approving() ? "batch.confirm.approve" : "batch.confirm.deny", batch.lines().isEmpty() ? 0
                        : selection.countProperty().get()), batch.stepProperty(), selection.countProperty()));
        controls.confirm().visibleProperty().bind(batch.stepProperty().isEqualTo(BatchViewModel.Step.SUMMARY));
        controls.confirm().managedProperty().bind(controls.confirm().visibleProperty());
        controls.confirm().disableProperty().bind(batch.busyProperty());
        controls.confirm().setOnAction(event -> batch.confirm());
        controls.back().textProperty().bind(Bindings.when(batch.stepProperty()
                .isEqualTo(BatchViewModel.Step.RESULT)).then(messages.get("batch.done")).otherwise(
                messages.get("batch.back")));
        controls.back().setOnAction(event -> batch.close());
        batch.stepProperty().addListener((o, was, now) -> {
            if (now == BatchViewModel.Step.SUMMARY) {
                controls.confirm().requestFocus();
            } else if (now == BatchViewModel.Step.RESULT) {
                controls.back().requestFocus();
            }
        });
    }
}
