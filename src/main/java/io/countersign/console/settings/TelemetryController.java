package io.countersign.console.settings;

import io.countersign.console.common.ScreenController;
import io.countersign.console.common.ShownText;
import java.util.Objects;
import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.layout.HBox;

/**
 * Wires the telemetry screen: the stored export read each time the screen is shown, its form, the warning shown
 * while content capture is on, and Save.
 */
public final class TelemetryController implements ScreenController {
    private final TelemetryViewModel viewModel;

    @FXML
    private TextField telemetryEndpoint;
    @FXML
    private TextArea telemetryHeaders;
    @FXML
    private TextField telemetryService;
    @FXML
    private TextField telemetryRatio;
    @FXML
    private CheckBox telemetryCapture;
    @FXML
    private HBox captureWarning;
    @FXML
    private Label telemetryEnvironment;
    @FXML
    private Label telemetryFormError;
    @FXML
    private Label telemetryProblem;
    @FXML
    private Label telemetryStatus;
    @FXML
    private Button saveTelemetry;

    public TelemetryController(TelemetryViewModel viewModel) {
        this.viewModel = Objects.requireNonNull(viewModel, "viewModel");
    }

    @FXML
    private void initialize() {
        telemetryEndpoint.textProperty().bindBidirectional(viewModel.endpointProperty());
        telemetryHeaders.textProperty().bindBidirectional(viewModel.headersProperty());
        telemetryService.textProperty().bindBidirectional(viewModel.serviceNameProperty());
        telemetryRatio.textProperty().bindBidirectional(viewModel.samplerRatioProperty());
        telemetryCapture.selectedProperty().bindBidirectional(viewModel.captureContentProperty());
        captureWarning.visibleProperty().bind(viewModel.captureContentProperty());
        captureWarning.managedProperty().bind(captureWarning.visibleProperty());
        telemetryEnvironment.setText(viewModel.environmentNote());
        saveTelemetry.disableProperty().bind(viewModel.feedback().busyProperty());
        saveTelemetry.setOnAction(event -> viewModel.save());
        ShownText.bind(telemetryFormError, viewModel.formErrorProperty());
        ShownText.bind(telemetryProblem, viewModel.feedback().problemProperty());
        ShownText.bind(telemetryStatus, viewModel.feedback().statusProperty());
    }

    @Override
    public void shown() {
        viewModel.load();
    }
}
