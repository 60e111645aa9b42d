package io.countersign.console.users;

import io.countersign.console.common.Messages;
import io.countersign.console.common.ScreenController;
import io.countersign.console.common.ShownText;
import io.countersign.console.controls.Badge;
import io.countersign.engine.Role;
import java.util.Locale;
import java.util.Objects;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.fxml.FXML;
import javafx.geometry.Pos;
import javafx.scene.control.Alert;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.layout.HBox;
import org.kordamp.ikonli.javafx.FontIcon;

/** Wires the users screen: the table of users with a check box per role and a Remove that asks first, and the form that adds one. */
public final class UsersController implements ScreenController {
    private final UsersViewModel viewModel;
    private final Messages messages;

    @FXML
    private HBox problemBox;
    @FXML
    private Label problem;
    @FXML
    private Label status;
    @FXML
    private TableView<UserRow> userTable;
    @FXML
    private TableColumn<UserRow, UserRow> nameColumn;
    @FXML
    private TableColumn<UserRow, UserRow> operatorColumn;
    @FXML
    private TableColumn<UserRow, UserRow> supervisorColumn;
    @FXML
    private TableColumn<UserRow, UserRow> adminColumn;
    @FXML
    private TableColumn<UserRow, UserRow> workerColumn;
    @FXML
    private TableColumn<UserRow, UserRow> removeColumn;
    @FXML
    private TextField newName;
    @FXML
    private Label nameError;
    @FXML
    private CheckBox newOperator;
    @FXML
    private CheckBox newSupervisor;
    @FXML
    private CheckBox newAdmin;
    @FXML
    private CheckBox newWorker;
    @FXML
    private Label rolesError;
    @FXML
    private Button add;

    public UsersController(UsersViewModel viewModel, Messages messages) {
        this.viewModel = Objects.requireNonNull(viewModel, "viewModel");
        this.messages = Objects.requireNonNull(messages, "messages");
    }

    @FXML
    private void initialize() {
        ShownText.bind(problemBox, problem, status, viewModel.feedback());

        userTable.setItems(viewModel.users());
        nameColumn.setCellValueFactory(cell -> new ReadOnlyObjectWrapper<>(cell.getValue()));
        nameColumn.setCellFactory(column -> new NameCell());
        roleColumn(operatorColumn, Role.OPERATOR);
        roleColumn(supervisorColumn, Role.SUPERVISOR);
        roleColumn(adminColumn, Role.ADMIN);
        roleColumn(workerColumn, Role.WORKER);
        removeColumn.setCellValueFactory(cell -> new ReadOnlyObjectWrapper<>(cell.getValue()));
        removeColumn.setCellFactory(column -> new RemoveCell());

        newName.textProperty().bindBidirectional(viewModel.newNameProperty());
        newOperator.selectedProperty().bindBidirectional(viewModel.newRoleProperty(Role.OPERATOR));
        newSupervisor.selectedProperty().bindBidirectional(viewModel.newRoleProperty(Role.SUPERVISOR));
        newAdmin.selectedProperty().bindBidirectional(viewModel.newRoleProperty(Role.ADMIN));
        newWorker.selectedProperty().bindBidirectional(viewModel.newRoleProperty(Role.WORKER));
        nameError.textProperty().bind(viewModel.nameErrorProperty());
        rolesError.textProperty().bind(viewModel.rolesErrorProperty());
        add.disableProperty().bind(viewModel.feedback().busyProperty());
        add.setOnAction(event -> viewModel.add());
    }

    @Override
    public void shown() {
        viewModel.load();
    }

    private void roleColumn(TableColumn<UserRow, UserRow> column, Role role) {
        column.setCellValueFactory(cell -> new ReadOnlyObjectWrapper<>(cell.getValue()));
        column.setCellFactory(table -> new RoleCell(role));
    }

    /** The user's name, marked when it is the person at the console. */
    private final class NameCell extends TableCell<UserRow, UserRow> {
        @Override
        protected void updateItem(UserRow row, boolean empty) {
            super.updateItem(row, empty);
            if (empty || row == null) {
                setGraphic(null);
                return;
            }
            Label name = new Label(row.name());
            name.getStyleClass().add("user-row-name");
            HBox box = new HBox(8, name);
            box.setAlignment(Pos.CENTER_LEFT);
            if (row.self()) {
                box.getChildren().add(new Badge(messages.get("users.you"), Badge.Kind.NEUTRAL));
            }
            setGraphic(box);
        }
    }

    /** Asks before a user is removed; Cancel is the default, so Enter or Esc keeps them. */
    private boolean confirmRemove(UserRow row) {
        Alert confirm = new Alert(Alert.AlertType.CONFIRMATION, messages.get("users.remove.confirm", row.name()),
                ButtonType.CANCEL, ButtonType.OK);
        confirm.initOwner(userTable.getScene().getWindow());
        confirm.setTitle(messages.get("users.remove.title"));
        confirm.setHeaderText(messages.get("users.remove.header", row.name()));
        Button remove = (Button) confirm.getDialogPane().lookupButton(ButtonType.OK);
        remove.setText(messages.get("users.remove.ok", row.name()));
        remove.setId("confirmRemove");
        remove.setDefaultButton(false);
        ((Button) confirm.getDialogPane().lookupButton(ButtonType.CANCEL)).setDefaultButton(true);
        return confirm.showAndWait().filter(ButtonType.OK::equals).isPresent();
    }

    /** The button that removes one user, after asking. */
    private final class RemoveCell extends TableCell<UserRow, UserRow> {
        private final Button remove = new Button(messages.get("users.remove.button"), new FontIcon("fth-trash-2"));

        RemoveCell() {
            remove.getStyleClass().add("remove-user");
            remove.setOnAction(event -> {
                UserRow row = getItem();
                if (row != null && confirmRemove(row)) {
                    viewModel.remove(row);
                }
            });
        }

        @Override
        protected void updateItem(UserRow row, boolean empty) {
            super.updateItem(row, empty);
            remove.disableProperty().unbind();
            if (empty || row == null) {
                setGraphic(null);
                return;
            }
            remove.disableProperty().bind(row.busyProperty());
            remove.setUserData(row.name());
            remove.setAccessibleText(messages.get("users.remove.of", row.name()));
            setGraphic(remove);
        }
    }

    /** A check box for one role of one user; a click changes the roles at once. */
    private final class RoleCell extends TableCell<UserRow, UserRow> {
        private final Role role;
        private final CheckBox box = new CheckBox();
        private BooleanProperty bound;

        RoleCell(Role role) {
            this.role = role;
            box.getStyleClass().add("role-" + role.name().toLowerCase(Locale.ROOT));
        }

        @Override
        protected void updateItem(UserRow row, boolean empty) {
            super.updateItem(row, empty);
            if (bound != null) {
                box.selectedProperty().unbindBidirectional(bound);
                box.disableProperty().unbind();
                bound = null;
            }
            if (empty || row == null) {
                setGraphic(null);
                return;
            }
            bound = row.roleProperty(role);
            box.selectedProperty().bindBidirectional(bound);
            box.disableProperty().bind(row.busyProperty());
            box.setUserData(row.name());
            box.setAccessibleText(messages.get("users.roleOf", messages.get(
                    "users.role." + role.name().toLowerCase(Locale.ROOT)), row.name()));
            setGraphic(box);
        }
    }
}
