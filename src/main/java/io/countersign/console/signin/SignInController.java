package io.countersign.console.signin;

import io.countersign.console.common.FxController;
import java.util.Objects;
import javafx.application.Platform;
import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.PasswordField;
import javafx.scene.control.TextField;

/** Wires the sign-in dialog to its view model. */
public final class SignInController implements FxController {
    private final SignInViewModel viewModel;
    private final Runnable cancel;

    @FXML
    private TextField url;
    @FXML
    private TextField user;
    @FXML
    private PasswordField password;
    @FXML
    private Label problem;
    @FXML
    private Button cancelButton;
    @FXML
    private Button signIn;

    /** @param cancel what Cancel (and Esc) does: the console quits */
    public SignInController(SignInViewModel viewModel, Runnable cancel) {
        this.viewModel = Objects.requireNonNull(viewModel, "viewModel");
        this.cancel = Objects.requireNonNull(cancel, "cancel");
    }

    @FXML
    private void initialize() {
        url.textProperty().bindBidirectional(viewModel.urlProperty());
        user.textProperty().bindBidirectional(viewModel.userProperty());
        password.textProperty().bindBidirectional(viewModel.passwordProperty());
        problem.textProperty().bind(viewModel.problemProperty());
        problem.visibleProperty().bind(viewModel.problemProperty().isNotEmpty());
        problem.managedProperty().bind(problem.visibleProperty());
        url.disableProperty().bind(viewModel.busyProperty());
        user.disableProperty().bind(viewModel.busyProperty());
        password.disableProperty().bind(viewModel.busyProperty());
        signIn.disableProperty().bind(viewModel.canSignInProperty().not());
        signIn.setOnAction(event -> viewModel.signIn());
        cancelButton.setOnAction(event -> cancel.run());
        // after a refused try the password field takes the keys again
        viewModel.busyProperty().addListener((o, was, now) -> {
            if (!now) {
                password.requestFocus();
            }
        });
        Platform.runLater(this::focusFirst);
    }

    /** The password field when the URL and user are filled in, else the first empty field. */
    private void focusFirst() {
        if (url.getText().isBlank()) {
            url.requestFocus();
        } else if (user.getText().isBlank()) {
            user.requestFocus();
        } else {
            password.requestFocus();
        }
    }
}
