package io.countersign.console.input;

import io.countersign.console.card.CardContext;
import io.countersign.console.card.CardFrame;
import io.countersign.console.card.CardHeader;
import io.countersign.console.card.CardSession;
import io.countersign.console.common.FxController;
import io.countersign.console.common.Messages;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.beans.binding.Bindings;
import javafx.collections.ListChangeListener;
import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.layout.VBox;

/** Wires the input card view to its view model; the form is built from the card's fields. */
public final class InputCardController implements FxController {
    private final InputCardViewModel viewModel;
    private final Messages messages;
    private final Map<InputFieldItem, InputFieldRow> rows = new HashMap<>();
    private final CardFrame frame = new CardFrame();

    @FXML
    private CardHeader header;
    @FXML
    private ScrollPane scroll;
    @FXML
    private CardContext context;
    @FXML
    private Label formTitle;
    @FXML
    private VBox form;
    @FXML
    private Button submit;
    @FXML
    private VBox decisionBar;

    public InputCardController(InputCardViewModel viewModel, Messages messages) {
        this.viewModel = Objects.requireNonNull(viewModel, "viewModel");
        this.messages = Objects.requireNonNull(messages, "messages");
    }

    @FXML
    private void initialize() {
        CardSession session = viewModel.session();
        viewModel.fields().addListener((ListChangeListener<InputFieldItem>) change -> showForm());
        viewModel.firstErrorProperty().addListener((o, was, now) -> {
            InputFieldRow row = now == null ? null : rows.get(now);
            if (row != null) {
                // after the error labels took their room, so the scroll lands on the right place
                Platform.runLater(() -> {
                    row.control().requestFocus();
                    ensureVisible(row);
                });
            }
        });
        submit.setOnAction(event -> viewModel.submit());
        submit.disableProperty().bind(viewModel.editableProperty().not());
        submit.textProperty().bind(Bindings.when(session.busyProperty().and(session.cardProperty().isNotNull()))
                .then(messages.get("input.sending")).otherwise(messages.get("input.submit")));
        frame.wire(new CardFrame.Parts(header, scroll, context, decisionBar), session, messages,
                "card.waitingForInput", viewModel::reload, card -> formTitle.setText(
                        messages.get("input.formTitle", card.input() == null ? "" : card.input().tool())));
    }

    private void showForm() {
        rows.clear();
        form.getChildren().clear();
        for (InputFieldItem item : viewModel.fields()) {
            InputFieldRow row = new InputFieldRow(item, messages, viewModel.editableProperty());
            rows.put(item, row);
            form.getChildren().add(row);
        }
    }

    private void ensureVisible(InputFieldRow row) {
        scroll.layout();
        double contentHeight = scroll.getContent().getBoundsInLocal().getHeight();
        double viewport = scroll.getViewportBounds().getHeight();
        if (contentHeight > viewport) {
            double y = row.getBoundsInParent().getMinY() + form.getBoundsInParent().getMinY();
            scroll.setVvalue(Math.max(0, Math.min(1, y / (contentHeight - viewport))));
        }
    }

    /** What the Timeline link does. */
    public void setOnOpenTimeline(Consumer<String> action) {
        frame.setOnOpenTimeline(action);
    }
}
