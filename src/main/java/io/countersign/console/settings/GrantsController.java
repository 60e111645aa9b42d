package io.countersign.console.settings;

import io.countersign.console.common.FxController;
import io.countersign.console.common.Messages;
import io.countersign.console.common.ShownText;
import java.util.Objects;
import java.util.function.Function;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.ListChangeListener;
import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TitledPane;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.FlowPane;

/**
 * Wires the grants part of the settings screen: a pane that reads the grants when it is opened, their table with
 * Revoke for the selected one, and a "grants off" switch per agent for admins.
 */
public final class GrantsController implements FxController {
    private final GrantsViewModel viewModel;
    private final Messages messages;

    @FXML
    private TitledPane grantsPane;
    @FXML
    private TableView<GrantRow> grantTable;
    @FXML
    private TableColumn<GrantRow, String> grantAgentColumn;
    @FXML
    private TableColumn<GrantRow, String> grantToolColumn;
    @FXML
    private TableColumn<GrantRow, String> grantScopeColumn;
    @FXML
    private TableColumn<GrantRow, String> grantByColumn;
    @FXML
    private TableColumn<GrantRow, String> grantUsesColumn;
    @FXML
    private TableColumn<GrantRow, String> grantExpiryColumn;
    @FXML
    private TableColumn<GrantRow, String> grantStateColumn;
    @FXML
    private Button revokeGrant;
    @FXML
    private FlowPane agentSwitches;
    @FXML
    private Label grantProblem;
    @FXML
    private Label grantStatus;

    public GrantsController(GrantsViewModel viewModel, Messages messages) {
        this.viewModel = Objects.requireNonNull(viewModel, "viewModel");
        this.messages = Objects.requireNonNull(messages, "messages");
    }

    @FXML
    private void initialize() {
        grantsPane.expandedProperty().addListener((o, was, expanded) -> viewModel.setShown(expanded));
        grantTable.setItems(viewModel.grants());
        text(grantAgentColumn, GrantRow::agent);
        text(grantToolColumn, GrantRow::tool);
        text(grantScopeColumn, GrantRow::scope);
        text(grantByColumn, GrantRow::grantedBy);
        text(grantUsesColumn, row -> Integer.toString(row.uses()));
        text(grantExpiryColumn, GrantRow::expiry);
        text(grantStateColumn, GrantRow::state);
        grantScopeColumn.setCellFactory(column -> new TableCell<>() {
            @Override
            protected void updateItem(String scope, boolean empty) {
                super.updateItem(scope, empty);
                setText(empty ? null : scope);
                // canonical arguments are often longer than the column
                setTooltip(empty || scope == null ? null : new Tooltip(scope));
            }
        });
        grantTable.getSelectionModel().selectedItemProperty().addListener((o, was, now) ->
                viewModel.selectedProperty().set(now));
        viewModel.selectedProperty().addListener((o, was, now) -> {
            if (now != grantTable.getSelectionModel().getSelectedItem()) {
                grantTable.getSelectionModel().select(now);
            }
        });
        revokeGrant.disableProperty().bind(viewModel.revocableProperty().not());
        revokeGrant.setOnAction(event -> viewModel.revoke());
        viewModel.agents().addListener((ListChangeListener<AgentGrantSwitch>) change -> showSwitches());
        showSwitches();
        ShownText.bind(grantProblem, viewModel.feedback().problemProperty());
        ShownText.bind(grantStatus, viewModel.feedback().statusProperty());
    }

    private void showSwitches() {
        agentSwitches.getChildren().setAll(viewModel.agents().stream().map(this::switchFor).toList());
    }

    private CheckBox switchFor(AgentGrantSwitch agent) {
        CheckBox box = new CheckBox(messages.get("grants.off", agent.agent()));
        box.getStyleClass().add("grants-off");
        box.setUserData(agent.agent());
        box.setSelected(agent.off());
        if (viewModel.maySwitch()) {
            box.disableProperty().bind(viewModel.feedback().busyProperty());
        } else {
            box.setDisable(true);
            box.setTooltip(new Tooltip(messages.get("grants.adminsSwitch")));
        }
        box.setOnAction(event -> viewModel.switchGrants(agent.agent(), box.isSelected()));
        return box;
    }

    private static void text(TableColumn<GrantRow, String> column, Function<GrantRow, String> value) {
        column.setCellValueFactory(cell -> new ReadOnlyStringWrapper(value.apply(cell.getValue())));
    }
}
