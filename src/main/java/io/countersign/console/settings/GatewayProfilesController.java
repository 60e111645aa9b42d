package io.countersign.console.settings;

import io.countersign.console.common.FxController;
import io.countersign.console.common.Messages;
import io.countersign.console.common.ShownText;
import io.countersign.engine.chat.TrustZone;
import java.util.Objects;
import java.util.function.Function;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ListChangeListener;
import javafx.fxml.FXML;
import javafx.scene.control.Alert;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.control.TitledPane;
import javafx.scene.control.Tooltip;
import javafx.scene.input.Clipboard;
import javafx.scene.input.ClipboardContent;
import javafx.scene.layout.FlowPane;
import javafx.util.StringConverter;
import org.kordamp.ikonli.javafx.FontIcon;

/**
 * Wires the gateway profiles part of the settings screen: a pane that reads the profiles when it is opened, their
 * table with a Remove per profile (after asking), the host command of the selected one with Copy, and the form
 * that adds one.
 */
public final class GatewayProfilesController implements FxController {
    private final GatewayProfilesViewModel viewModel;
    private final Messages messages;

    @FXML
    private TitledPane gatewayPane;
    @FXML
    private TableView<GatewayProfileRow> profileTable;
    @FXML
    private TableColumn<GatewayProfileRow, String> profileNameColumn;
    @FXML
    private TableColumn<GatewayProfileRow, String> profileServersColumn;
    @FXML
    private TableColumn<GatewayProfileRow, String> profileToolsColumn;
    @FXML
    private TableColumn<GatewayProfileRow, String> profileZoneColumn;
    @FXML
    private TableColumn<GatewayProfileRow, String> profileFourEyesColumn;
    @FXML
    private TableColumn<GatewayProfileRow, String> profileDeadlineColumn;
    @FXML
    private TableColumn<GatewayProfileRow, GatewayProfileRow> profileRemoveColumn;
    @FXML
    private TextField hostCommand;
    @FXML
    private Button copyCommand;
    @FXML
    private TextField profileName;
    @FXML
    private ComboBox<TrustZone> profileZone;
    @FXML
    private CheckBox profileFourEyes;
    @FXML
    private TextField profileDeadline;
    @FXML
    private ComboBox<String> profileFallback;
    @FXML
    private TextField profileTools;
    @FXML
    private Button addProfile;
    @FXML
    private FlowPane serverChoices;
    @FXML
    private Label profileFormError;
    @FXML
    private Label profileProblem;
    @FXML
    private Label profileStatus;

    public GatewayProfilesController(GatewayProfilesViewModel viewModel, Messages messages) {
        this.viewModel = Objects.requireNonNull(viewModel, "viewModel");
        this.messages = Objects.requireNonNull(messages, "messages");
    }

    @FXML
    private void initialize() {
        gatewayPane.expandedProperty().addListener((o, was, expanded) -> {
            if (expanded) {
                viewModel.load();
            }
        });
        profileTable.setItems(viewModel.profiles());
        text(profileNameColumn, GatewayProfileRow::name);
        text(profileServersColumn, GatewayProfileRow::servers);
        text(profileToolsColumn, GatewayProfileRow::tools);
        text(profileZoneColumn, GatewayProfileRow::zone);
        text(profileFourEyesColumn, GatewayProfileRow::fourEyes);
        text(profileDeadlineColumn, GatewayProfileRow::deadline);
        profileRemoveColumn.setCellValueFactory(cell -> new ReadOnlyObjectWrapper<>(cell.getValue()));
        profileRemoveColumn.setCellFactory(column -> new RemoveCell());
        profileTable.getSelectionModel().selectedItemProperty().addListener((o, was, now) -> {
            if (now != null) {
                viewModel.selectedProperty().set(now);
            }
        });
        viewModel.selectedProperty().addListener((o, was, now) -> {
            if (now != profileTable.getSelectionModel().getSelectedItem()) {
                profileTable.getSelectionModel().select(now);
            }
        });

        hostCommand.textProperty().bind(viewModel.commandProperty());
        copyCommand.disableProperty().bind(viewModel.commandProperty().isEmpty());
        copyCommand.setOnAction(event -> copy());

        profileName.textProperty().bindBidirectional(viewModel.nameProperty());
        profileTools.textProperty().bindBidirectional(viewModel.toolsProperty());
        profileDeadline.textProperty().bindBidirectional(viewModel.deadlineProperty());
        profileFourEyes.selectedProperty().bindBidirectional(viewModel.fourEyesProperty());
        profileZone.setItems(FXCollections.observableArrayList(TrustZone.values()));
        profileZone.setConverter(converter(TrustZone::code, TrustZone::fromCode));
        profileZone.valueProperty().bindBidirectional(viewModel.zoneProperty());
        profileFallback.setItems(FXCollections.observableArrayList(viewModel.fallbacks()));
        profileFallback.setConverter(converter(code -> code.isEmpty() ? messages.get("gateway.add.noFallback")
                : messages.get("gateway.add.fallbackTo", code), text -> text));
        profileFallback.valueProperty().bindBidirectional(viewModel.fallbackProperty());
        addProfile.disableProperty().bind(viewModel.feedback().busyProperty());
        addProfile.setOnAction(event -> viewModel.add());
        viewModel.serverChoices().addListener((ListChangeListener<ServerChoice>) change -> showChoices());
        showChoices();
        ShownText.bind(profileFormError, viewModel.formErrorProperty());
        ShownText.bind(profileProblem, viewModel.feedback().problemProperty());
        ShownText.bind(profileStatus, viewModel.feedback().statusProperty());
    }

    private void copy() {
        ClipboardContent content = new ClipboardContent();
        content.putString(viewModel.commandProperty().get());
        Clipboard.getSystemClipboard().setContent(content);
        copyCommand.setTooltip(new Tooltip(messages.get("gateway.copied")));
    }

    private void showChoices() {
        if (viewModel.serverChoices().isEmpty()) {
            Label none = new Label(messages.get("gateway.add.noServers"));
            none.getStyleClass().add("input-help");
            serverChoices.getChildren().setAll(none);
            return;
        }
        serverChoices.getChildren().setAll(viewModel.serverChoices().stream().map(choice -> {
            CheckBox box = new CheckBox(choice.name());
            box.getStyleClass().add("front-server");
            box.setUserData(choice.name());
            box.selectedProperty().bindBidirectional(choice.picked());
            return box;
        }).toList());
    }

    private static <T> StringConverter<T> converter(Function<T, String> shown, Function<String, T> read) {
        return new StringConverter<>() {
            @Override
            public String toString(T value) {
                return value == null ? "" : shown.apply(value);
            }

            @Override
            public T fromString(String text) {
                return read.apply(text);
            }
        };
    }

    private static void text(TableColumn<GatewayProfileRow, String> column, Function<GatewayProfileRow, String> value) {
        column.setCellValueFactory(cell -> new ReadOnlyStringWrapper(value.apply(cell.getValue())));
        column.setCellFactory(c -> new TableCell<>() {
            @Override
            protected void updateItem(String text, boolean empty) {
                super.updateItem(text, empty);
                setText(empty ? null : text);
                // a profile may front more servers and tools than the column shows
                setTooltip(empty || text == null ? null : new Tooltip(text));
            }
        });
    }


    /** Asks before a profile is removed; Cancel is the default, so Enter or Esc keeps it. */
    private boolean confirmRemove(GatewayProfileRow row) {
        Alert confirm = new Alert(Alert.AlertType.CONFIRMATION, messages.get("gateway.remove.confirm", row.name()),
                ButtonType.CANCEL, ButtonType.OK);
        confirm.initOwner(profileTable.getScene().getWindow());
        confirm.setTitle(messages.get("gateway.remove.title"));
        confirm.setHeaderText(messages.get("gateway.remove.header", row.name()));
        Button remove = (Button) confirm.getDialogPane().lookupButton(ButtonType.OK);
        remove.setText(messages.get("gateway.remove.ok", row.name()));
        remove.setId("confirmRemoveProfile");
        remove.setDefaultButton(false);
        ((Button) confirm.getDialogPane().lookupButton(ButtonType.CANCEL)).setDefaultButton(true);
        return confirm.showAndWait().filter(ButtonType.OK::equals).isPresent();
    }

    /** The button that removes one profile, after asking. */
    private final class RemoveCell extends TableCell<GatewayProfileRow, GatewayProfileRow> {
        private final Button remove = new Button(null, new FontIcon("fth-trash-2"));

        RemoveCell() {
            remove.getStyleClass().addAll("remove-profile", "flat", "button-icon");
            remove.setTooltip(new Tooltip(messages.get("gateway.remove.tooltip")));
            remove.disableProperty().bind(viewModel.feedback().busyProperty());
            remove.setOnAction(event -> {
                GatewayProfileRow row = getItem();
                if (row != null && confirmRemove(row)) {
                    viewModel.remove(row);
                }
            });
        }

        @Override
        protected void updateItem(GatewayProfileRow row, boolean empty) {
            super.updateItem(row, empty);
            if (empty || row == null) {
                setGraphic(null);
                return;
            }
            remove.setUserData(row.name());
            remove.setAccessibleText(messages.get("gateway.remove.of", row.name()));
            setGraphic(remove);
        }
    }
}
