package io.countersign.console.newrun;

import io.countersign.console.common.FxController;
import io.countersign.console.common.ShownText;
import io.countersign.service.AgentSummary;
import java.util.Objects;
import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.util.StringConverter;

/** Wires the New run dialog to its view model. */
public final class NewRunController implements FxController {
    private final NewRunViewModel viewModel;
    private Runnable onClose = () -> {
    };

    @FXML
    private ComboBox<AgentSummary> agent;
    @FXML
    private Label agentDetails;
    @FXML
    private TextArea prompt;
    @FXML
    private CheckBox unattended;
    @FXML
    private Label missing;
    @FXML
    private Label problem;
    @FXML
    private Button cancel;
    @FXML
    private Button start;

    public NewRunController(NewRunViewModel viewModel) {
        this.viewModel = Objects.requireNonNull(viewModel, "viewModel");
    }

    @FXML
    private void initialize() {
        agent.setItems(viewModel.agents());
        agent.setConverter(new StringConverter<>() {
            @Override
            public String toString(AgentSummary summary) {
                return summary == null ? "" : summary.name();
            }

            @Override
            public AgentSummary fromString(String name) {
                return viewModel.agents().stream().filter(a -> a.name().equals(name)).findFirst().orElse(null);
            }
        });
        agent.valueProperty().bindBidirectional(viewModel.agentProperty());
        agentDetails.textProperty().bind(viewModel.agentDetailsProperty());
        agentDetails.visibleProperty().bind(viewModel.agentDetailsProperty().isNotEmpty());
        agentDetails.managedProperty().bind(agentDetails.visibleProperty());
        prompt.textProperty().bindBidirectional(viewModel.promptProperty());
        unattended.selectedProperty().bindBidirectional(viewModel.unattendedProperty());
        missing.textProperty().bind(viewModel.missingProperty());
        ShownText.bind(problem, viewModel.problemProperty());
        start.disableProperty().bind(viewModel.canStartProperty().not());
        start.setOnAction(event -> viewModel.start());
        cancel.setOnAction(event -> onClose.run());
        viewModel.startedProperty().addListener((o, was, now) -> {
            if (now != null) {
                onClose.run();
            }
        });
    }

    /** What closing the dialog does (Cancel, Esc, or a run that started). */
    public void setOnClose(Runnable action) {
        this.onClose = Objects.requireNonNull(action, "action");
    }

    /** Puts the focus on the agent picker, where the dialog starts. */
    public void focusFirst() {
        agent.requestFocus();
    }
}
