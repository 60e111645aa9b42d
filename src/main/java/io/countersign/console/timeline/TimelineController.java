package io.countersign.console.timeline;

import io.countersign.console.common.FxController;
import io.countersign.service.RunTimeline;
import java.util.Objects;
import javafx.collections.ListChangeListener;
import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.layout.VBox;

/** Wires the timeline view to its view model. */
public final class TimelineController implements FxController {
    private final TimelineViewModel viewModel;
    private Runnable onBack = () -> {
    };

    @FXML
    private Label title;
    @FXML
    private Label summary;
    @FXML
    private Label problem;
    @FXML
    private Label loading;
    @FXML
    private Button back;
    @FXML
    private ScrollPane scroll;
    @FXML
    private VBox entries;

    public TimelineController(TimelineViewModel viewModel) {
        this.viewModel = Objects.requireNonNull(viewModel, "viewModel");
    }

    @FXML
    private void initialize() {
        title.textProperty().bind(viewModel.headerProperty());
        summary.textProperty().bind(viewModel.summaryProperty());
        problem.textProperty().bind(viewModel.problemProperty());
        problem.visibleProperty().bind(viewModel.problemProperty().isNotEmpty());
        problem.managedProperty().bind(problem.visibleProperty());
        loading.visibleProperty().bind(viewModel.loadingProperty());
        loading.managedProperty().bind(loading.visibleProperty());
        back.setOnAction(event -> onBack.run());
        viewModel.entries().addListener((ListChangeListener<RunTimeline.Entry>) change -> showEntries());
        showEntries();
    }

    private void showEntries() {
        entries.getChildren().setAll(viewModel.entries().stream()
                .map(entry -> new TimelineEntryView(entry, viewModel.timeOf(entry), viewModel.kindOf(entry)))
                .toList());
        scroll.setVvalue(0);
    }

    /** What the Back button does. */
    public void setOnBack(Runnable action) {
        this.onBack = Objects.requireNonNull(action, "action");
    }
}
