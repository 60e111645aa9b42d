package io.countersign.console.settings;

import io.countersign.console.common.FxController;
import io.countersign.console.common.Messages;
import io.countersign.console.common.ShownText;
import io.countersign.engine.webhook.CardEventType;
import java.util.Objects;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.control.TitledPane;
import javafx.scene.control.Tooltip;
import org.kordamp.ikonli.javafx.FontIcon;

/**
 * Wires the webhooks part of the settings screen: a pane that reads the webhooks when it is opened, their table
 * with a Remove per hook, and the form that adds one.
 */
public final class WebhooksController implements FxController {
    private final WebhooksViewModel viewModel;
    private final Messages messages;

    @FXML
    private TitledPane webhooksPane;
    @FXML
    private TableView<WebhookRow> webhookTable;
    @FXML
    private TableColumn<WebhookRow, String> hookUrlColumn;
    @FXML
    private TableColumn<WebhookRow, String> hookEventsColumn;
    @FXML
    private TableColumn<WebhookRow, String> hookBodyColumn;
    @FXML
    private TableColumn<WebhookRow, WebhookRow> hookDeliveryColumn;
    @FXML
    private TableColumn<WebhookRow, String> hookQueueColumn;
    @FXML
    private TableColumn<WebhookRow, WebhookRow> hookRemoveColumn;
    @FXML
    private TextField hookUrl;
    @FXML
    private TextField hookSecret;
    @FXML
    private CheckBox hookWaiting;
    @FXML
    private CheckBox hookDecided;
    @FXML
    private CheckBox hookExpired;
    @FXML
    private CheckBox hookEscalated;
    @FXML
    private CheckBox hookSlack;
    @FXML
    private Button addHook;
    @FXML
    private Label hookFormError;
    @FXML
    private Label hookProblem;
    @FXML
    private Label hookStatus;

    public WebhooksController(WebhooksViewModel viewModel, Messages messages) {
        this.viewModel = Objects.requireNonNull(viewModel, "viewModel");
        this.messages = Objects.requireNonNull(messages, "messages");
    }

    @FXML
    private void initialize() {
        webhooksPane.expandedProperty().addListener((o, was, expanded) -> {
            if (expanded) {
                viewModel.load();
            }
        });
        webhookTable.setItems(viewModel.hooks());
        hookUrlColumn.setCellValueFactory(cell -> new ReadOnlyStringWrapper(cell.getValue().url()));
        hookUrlColumn.setCellFactory(column -> new UrlCell());
        hookEventsColumn.setCellValueFactory(cell -> new ReadOnlyStringWrapper(cell.getValue().events()));
        hookBodyColumn.setCellValueFactory(cell -> new ReadOnlyStringWrapper(cell.getValue().body()));
        hookDeliveryColumn.setCellValueFactory(cell -> new ReadOnlyObjectWrapper<>(cell.getValue()));
        hookDeliveryColumn.setCellFactory(column -> new DeliveryCell());
        hookQueueColumn.setCellValueFactory(cell -> new ReadOnlyStringWrapper(cell.getValue().queue()));
        hookRemoveColumn.setCellValueFactory(cell -> new ReadOnlyObjectWrapper<>(cell.getValue()));
        hookRemoveColumn.setCellFactory(column -> new RemoveCell());

        hookUrl.textProperty().bindBidirectional(viewModel.urlProperty());
        hookSecret.textProperty().bindBidirectional(viewModel.secretProperty());
        hookWaiting.selectedProperty().bindBidirectional(viewModel.eventProperty(CardEventType.WAITING));
        hookDecided.selectedProperty().bindBidirectional(viewModel.eventProperty(CardEventType.DECIDED));
        hookExpired.selectedProperty().bindBidirectional(viewModel.eventProperty(CardEventType.EXPIRED));
        hookEscalated.selectedProperty().bindBidirectional(viewModel.eventProperty(CardEventType.ESCALATED));
        hookSlack.selectedProperty().bindBidirectional(viewModel.slackProperty());
        addHook.disableProperty().bind(viewModel.feedback().busyProperty());
        addHook.setOnAction(event -> viewModel.add());
        ShownText.bind(hookFormError, viewModel.formErrorProperty());
        ShownText.bind(hookProblem, viewModel.feedback().problemProperty());
        ShownText.bind(hookStatus, viewModel.feedback().statusProperty());
    }


    /** How the last delivery went, marked when it failed. */
    private static final class DeliveryCell extends TableCell<WebhookRow, WebhookRow> {
        @Override
        protected void updateItem(WebhookRow row, boolean empty) {
            super.updateItem(row, empty);
            getStyleClass().remove("hook-failing");
            if (empty || row == null) {
                setText(null);
                setTooltip(null);
                return;
            }
            setText(row.lastDelivery());
            // a failure's reason is often longer than the column
            setTooltip(new Tooltip(row.lastDelivery()));
            if (row.failing()) {
                getStyleClass().add("hook-failing");
            }
        }
    }

    /** The webhook's address, whole in its tooltip. */
    private static final class UrlCell extends TableCell<WebhookRow, String> {
        @Override
        protected void updateItem(String url, boolean empty) {
            super.updateItem(url, empty);
            setText(empty ? null : url);
            setTooltip(empty || url == null ? null : new Tooltip(url));
        }
    }

    /** The button that removes one webhook and what is queued for it. */
    private final class RemoveCell extends TableCell<WebhookRow, WebhookRow> {
        private final Button remove = new Button(null, new FontIcon("fth-trash-2"));

        RemoveCell() {
            remove.getStyleClass().addAll("remove-hook", "flat", "button-icon");
            remove.setTooltip(new Tooltip(messages.get("webhooks.remove")));
            remove.disableProperty().bind(viewModel.feedback().busyProperty());
            remove.setOnAction(event -> {
                WebhookRow row = getItem();
                if (row != null) {
                    viewModel.remove(row);
                }
            });
        }

        @Override
        protected void updateItem(WebhookRow row, boolean empty) {
            super.updateItem(row, empty);
            if (empty || row == null) {
                setGraphic(null);
                return;
            }
            remove.setUserData(row.id());
            remove.setAccessibleText(messages.get("webhooks.removeOf", row.url()));
            setGraphic(remove);
        }
    }
}
