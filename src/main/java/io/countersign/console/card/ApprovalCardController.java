package io.countersign.console.card;

import io.countersign.engine.grant.GrantSpan;

import io.countersign.console.common.FxController;
import io.countersign.console.common.Messages;
import io.countersign.service.RunCard;
import java.util.Objects;
import java.util.function.Consumer;
import javafx.collections.ListChangeListener;
import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.layout.VBox;

/** Wires the approval card view to its view model; the call panes are built from the card's calls. */
public final class ApprovalCardController implements FxController {
    private final ApprovalCardViewModel viewModel;
    private final Messages messages;
    private final CardFrame frame = new CardFrame();

    @FXML
    private CardHeader header;
    @FXML
    private ScrollPane scroll;
    @FXML
    private CardContext context;
    @FXML
    private Label pendingTitle;
    @FXML
    private VBox pendingBox;
    @FXML
    private Label refusedTitle;
    @FXML
    private VBox refusedBox;
    @FXML
    private ComboBox<String> reason;
    @FXML
    private Button approveAll;
    @FXML
    private Button denyAll;
    @FXML
    private Button submit;
    @FXML
    private ComboBox<GrantSpan> allow;
    @FXML
    private VBox decisionBar;

    public ApprovalCardController(ApprovalCardViewModel viewModel, Messages messages) {
        this.viewModel = Objects.requireNonNull(viewModel, "viewModel");
        this.messages = Objects.requireNonNull(messages, "messages");
    }

    @FXML
    private void initialize() {
        CardSession session = viewModel.session();
        header.setOnShowRefused(() -> scroll.setVvalue(1));
        viewModel.calls().addListener((ListChangeListener<PendingCallItem>) change -> showCalls());
        viewModel.refused().addListener((ListChangeListener<RunCard.RefusedCallView>) change -> showRefused());

        reason.getItems().setAll(viewModel.reasonPresets());
        reason.getEditor().textProperty().bindBidirectional(viewModel.denyReasonProperty());
        reason.valueProperty().addListener((o, was, now) -> {
            if (now != null) {
                viewModel.denyReasonProperty().set(now);
            }
        });
        if (session.mayDecide()) {
            // not disabled while a decision is on its way: a disabled field would drop the keyboard focus
            reason.disableProperty().bind(session.finishedProperty().or(session.cardProperty().isNull()));
        } else {
            reason.setDisable(true);
        }
        approveAll.setOnAction(event -> viewModel.approveAll());
        approveAll.disableProperty().bind(viewModel.editableProperty().not());
        denyAll.setOnAction(event -> {
            viewModel.denyAll();
            focusReason();
        });
        denyAll.disableProperty().bind(viewModel.editableProperty().not());
        allow.getItems().setAll(java.util.Arrays.asList(null, GrantSpan.ONE_HOUR, GrantSpan.EIGHT_HOURS,
                GrantSpan.REST_OF_RUN));
        allow.setConverter(new javafx.util.StringConverter<>() {
            @Override
            public String toString(GrantSpan span) {
                return messages.get(span == null ? "card.allow.none" : "card.allow." + span.code());
            }

            @Override
            public GrantSpan fromString(String text) {
                return null;
            }
        });
        allow.valueProperty().bindBidirectional(viewModel.allowForProperty());
        allow.disableProperty().bind(viewModel.editableProperty().not());
        submit.textProperty().bind(viewModel.submitTextProperty());
        submit.disableProperty().bind(viewModel.canSubmitProperty().not());
        submit.setOnAction(event -> viewModel.submit());
        frame.wire(new CardFrame.Parts(header, scroll, context, decisionBar), session, messages,
                "card.waitingForApproval", viewModel::reload, card -> {
                });
    }

    private void showCalls() {
        pendingTitle.setText(messages.get("card.pendingTitle", viewModel.calls().size()));
        pendingBox.getChildren().setAll(viewModel.calls().stream()
                .map(item -> new PendingCallPane(item, messages, viewModel.editableProperty())).toList());
    }

    private void showRefused() {
        // refused calls are numbered after the waiting ones; only waiting calls answer to digit keys
        int offset = viewModel.calls().size();
        refusedTitle.setText(messages.get("card.refusedTitle", viewModel.refused().size()));
        boolean any = !viewModel.refused().isEmpty();
        refusedTitle.setVisible(any);
        refusedTitle.setManaged(any);
        refusedBox.getChildren().clear();
        for (int i = 0; i < viewModel.refused().size(); i++) {
            refusedBox.getChildren().add(new RefusedCallPane(viewModel.refused().get(i), offset + i + 1, messages));
        }
    }

    /** Puts the focus into the deny reason (after D). */
    public void focusReason() {
        reason.requestFocus();
        reason.getEditor().selectAll();
    }

    /** What the Timeline link does. */
    public void setOnOpenTimeline(Consumer<String> action) {
        frame.setOnOpenTimeline(action);
    }
}
