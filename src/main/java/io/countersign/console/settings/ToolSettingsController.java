package io.countersign.console.settings;

import atlantafx.base.controls.ToggleSwitch;
import io.countersign.console.common.Messages;
import io.countersign.console.common.ScreenController;
import io.countersign.console.common.ShownText;
import io.countersign.console.controls.Badge;
import io.countersign.engine.tool.RemoteDeclaration;
import io.countersign.engine.tool.ToolEffect;
import io.countersign.service.ToolSettingView;
import java.util.Objects;
import java.util.function.Function;
import javafx.beans.binding.Bindings;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.value.ChangeListener;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import javafx.css.PseudoClass;
import javafx.fxml.FXML;
import javafx.geometry.Pos;
import javafx.geometry.Side;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Label;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.kordamp.ikonli.feather.Feather;
import org.kordamp.ikonli.javafx.FontIcon;

/** Wires the tool settings screen: the table of tools with their switches, the preview panel and the history. */
public final class ToolSettingsController implements ScreenController {
    private static final PseudoClass CHANGED = PseudoClass.getPseudoClass("changed");
    private static final PseudoClass LOCKED = PseudoClass.getPseudoClass("locked");
    private static final double ROW_HEIGHT = 64;
    private static final double NOTE_WIDTH = 260;

    private final ToolSettingsViewModel viewModel;
    private final Messages messages;

    @FXML
    private Label problem;
    @FXML
    private TableView<ToolRow> toolTable;
    @FXML
    private TableColumn<ToolRow, ToolRow> nameColumn;
    @FXML
    private TableColumn<ToolRow, String> groupColumn;
    @FXML
    private TableColumn<ToolRow, ToolRow> effectColumn;
    @FXML
    private TableColumn<ToolRow, String> dataColumn;
    @FXML
    private TableColumn<ToolRow, ToolRow> enabledColumn;
    @FXML
    private TableColumn<ToolRow, ToolRow> approvalColumn;
    @FXML
    private TableColumn<ToolRow, String> unattendedColumn;
    @FXML
    private VBox previewPane;
    @FXML
    private Label previewing;
    @FXML
    private VBox pendingLines;
    @FXML
    private VBox effectLines;
    @FXML
    private VBox refusalLines;
    @FXML
    private Button discard;
    @FXML
    private Button save;
    @FXML
    private Label status;
    @FXML
    private TableView<HistoryItem> historyTable;
    @FXML
    private TableColumn<HistoryItem, String> whenColumn;
    @FXML
    private TableColumn<HistoryItem, String> whoColumn;
    @FXML
    private TableColumn<HistoryItem, String> settingColumn;
    @FXML
    private TableColumn<HistoryItem, String> changeColumn;

    public ToolSettingsController(ToolSettingsViewModel viewModel, Messages messages) {
        this.viewModel = Objects.requireNonNull(viewModel, "viewModel");
        this.messages = Objects.requireNonNull(messages, "messages");
    }

    @FXML
    private void initialize() {
        ShownText.bind(problem, viewModel.feedback().problemProperty());

        toolTable.setItems(viewModel.tools());
        toolTable.setRowFactory(table -> new ChangedRow());
        // one height for every row: room for a two-line note and a link beside a switch, and no layout pass per row
        toolTable.setFixedCellSize(ROW_HEIGHT);
        nameColumn.setCellValueFactory(cell -> new ReadOnlyObjectWrapper<>(cell.getValue()));
        nameColumn.setCellFactory(column -> graphicCell(this::nameOf));
        groupColumn.setCellValueFactory(cell -> new ReadOnlyStringWrapper(cell.getValue().saved().group()));
        effectColumn.setCellValueFactory(cell -> new ReadOnlyObjectWrapper<>(cell.getValue()));
        effectColumn.setCellFactory(column -> graphicCell(this::effectOf));
        dataColumn.setCellValueFactory(cell -> new ReadOnlyStringWrapper(cell.getValue().saved().dataClass().code()));
        dataColumn.getStyleClass().add("mono-column");
        enabledColumn.setCellValueFactory(cell -> new ReadOnlyObjectWrapper<>(cell.getValue()));
        enabledColumn.setCellFactory(column -> new SwitchCell(false, ToolRow::enabledProperty));
        approvalColumn.setCellValueFactory(cell -> new ReadOnlyObjectWrapper<>(cell.getValue()));
        approvalColumn.setCellFactory(column -> new SwitchCell(true, ToolRow::approvalBoundProperty));
        unattendedColumn.setCellValueFactory(cell -> cell.getValue().unattendedProperty());

        previewPane.visibleProperty().bind(Bindings.isNotEmpty(viewModel.pending()));
        previewPane.managedProperty().bind(previewPane.visibleProperty());
        previewing.visibleProperty().bind(viewModel.previewingProperty());
        mirror(viewModel.pendingLines(), pendingLines, "preview-pending");
        mirror(viewModel.effectLines(), effectLines, "preview-effect");
        mirror(viewModel.refusals(), refusalLines, "preview-refusal");
        save.disableProperty().bind(viewModel.canSaveProperty().not());
        save.setOnAction(event -> viewModel.save());
        discard.setOnAction(event -> viewModel.discard());
        status.textProperty().bind(viewModel.feedback().statusProperty());

        historyTable.setItems(viewModel.history());
        whenColumn.setCellValueFactory(cell -> new ReadOnlyStringWrapper(cell.getValue().when()));
        whoColumn.setCellValueFactory(cell -> new ReadOnlyStringWrapper(cell.getValue().who()));
        settingColumn.setCellValueFactory(cell -> new ReadOnlyStringWrapper(cell.getValue().setting()));
        changeColumn.setCellValueFactory(cell -> new ReadOnlyStringWrapper(cell.getValue().change()));
    }

    @Override
    public void shown() {
        viewModel.show();
    }

    private HBox nameOf(ToolRow row) {
        ToolSettingView tool = row.saved();
        Label name = new Label(tool.name());
        name.getStyleClass().addAll("tool-name", "mono");
        name.setTooltip(new Tooltip(tool.description()));
        name.setMinWidth(Region.USE_PREF_SIZE);
        HBox box = new HBox(6, name);
        box.setAlignment(Pos.CENTER_LEFT);
        if (row.isRemote()) {
            Badge remote = new Badge(messages.get("settings.remote"), Badge.Kind.REMOTE);
            remote.setTooltip(new Tooltip(messages.get("settings.remoteServer", tool.server())));
            box.getChildren().add(remote);
        }
        if (tool.asksForInput()) {
            box.getChildren().add(new Badge(messages.get("settings.input"), Badge.Kind.INPUT));
        }
        return box;
    }

    /**
     * A local tool's effect; a remote tool's is not known (its declaration decides, never its effect), and what its
     * server claims is in the tooltip.
     */
    private Badge effectOf(ToolRow row) {
        if (row.isRemote()) {
            Badge unknown = new Badge(messages.get("settings.effect.unknown"), Badge.Kind.NEUTRAL);
            String claims = row.saved().serverClaims();
            unknown.setTooltip(new Tooltip(claims.isEmpty() ? messages.get("settings.effect.unknownTip")
                    : messages.get("settings.effect.claimsTip", claims)));
            return unknown;
        }
        return row.saved().effect() == ToolEffect.WRITE
                ? new Badge(messages.get("settings.effect.write"), Badge.Kind.WRITE)
                : new Badge(messages.get("settings.effect.read"), Badge.Kind.NEUTRAL);
    }

    /** Lines of text that follow a list of the view model's. */
    private static void mirror(ObservableList<String> lines, VBox box, String styleClass) {
        Runnable fill = () -> box.getChildren().setAll(lines.stream().map(line -> {
            Label label = new Label(line);
            label.setWrapText(true);
            label.getStyleClass().add(styleClass);
            return label;
        }).toList());
        lines.addListener((ListChangeListener<String>) change -> fill.run());
        fill.run();
    }

    private static TableCell<ToolRow, ToolRow> graphicCell(Function<ToolRow, Node> graphic) {
        return new TableCell<>() {
            @Override
            protected void updateItem(ToolRow row, boolean empty) {
                super.updateItem(row, empty);
                setGraphic(empty || row == null ? null : graphic.apply(row));
            }
        };
    }

    /**
     * A switch bound to one of the row's properties; a switch the admin cannot change says why beside it, and the
     * approval switch of a server nobody declared carries an amber badge, since its tools run without approval.
     */
    private final class SwitchCell extends TableCell<ToolRow, ToolRow> {
        private final ToggleSwitch toggle = new ToggleSwitch();
        private final Badge undeclared = new Badge(messages.get("settings.undeclared"), Badge.Kind.UNDECLARED);
        private final Label note = new Label();
        private final Hyperlink followServer = new Hyperlink(messages.get("settings.followServer"));
        private final Hyperlink declareServer = new Hyperlink();
        private final FontIcon lock = new FontIcon(Feather.LOCK);
        private final HBox box = new HBox(8, toggle, lock, undeclared, new VBox(note, followServer, declareServer));
        private final boolean approval;
        private final Function<ToolRow, BooleanProperty> property;
        private BooleanProperty bound;

        /** @param approval the approval switch, which may be fixed; otherwise the enabled switch, which never is */
        SwitchCell(boolean approval, Function<ToolRow, BooleanProperty> property) {
            this.approval = approval;
            this.property = property;
            toggle.getStyleClass().add(approval ? "approval-switch" : "enabled-switch");
            note.getStyleClass().add("switch-note");
            lock.getStyleClass().add("switch-lock");
            note.setWrapText(true);
            note.setMaxWidth(NOTE_WIDTH);
            followServer.getStyleClass().add("follow-server");
            declareServer.getStyleClass().add("follow-server");
            undeclared.setTooltip(new Tooltip(messages.get("settings.undeclaredTip")));
            undeclared.setAccessibleText(messages.get("settings.undeclaredTip"));
            box.setAlignment(Pos.CENTER_LEFT);
        }

        @Override
        protected void updateItem(ToolRow row, boolean empty) {
            super.updateItem(row, empty);
            if (bound != null) {
                toggle.selectedProperty().unbindBidirectional(bound);
                bound = null;
            }
            if (empty || row == null) {
                setGraphic(null);
                return;
            }
            bound = property.apply(row);
            toggle.selectedProperty().bindBidirectional(bound);
            toggle.setUserData(row.saved().name());
            toggle.setAccessibleText(messages.get(approval ? "settings.column.approval" : "settings.column.enabled")
                    + ": " + row.saved().name());
            boolean locked = approval && !row.approvalSwitchable();
            toggle.setDisable(locked);
            // a fixed switch looks locked, not off: a lock beside it, and the switch drawn as it stands
            toggle.pseudoClassStateChanged(LOCKED, locked);
            lock.setVisible(locked);
            lock.setManaged(locked);
            boolean notDeclared = approval && row.saved().declaration() != null
                    && !row.saved().declaration().declaration().declared();
            undeclared.setVisible(notDeclared);
            undeclared.setManaged(notDeclared);
            note.setText(approval ? approvalNote(row) : "");
            note.setVisible(!note.getText().isEmpty());
            note.setManaged(note.isVisible());
            // a tool declared by itself can go back to its server's declaration
            boolean ownDeclaration = approval && row.isRemote() && !row.followsServerSaved();
            followServer.setVisible(ownDeclaration);
            followServer.setManaged(ownDeclaration);
            followServer.setUserData(row.saved().name());
            followServer.setTooltip(new Tooltip(messages.get("settings.followServerTip", row.saved().server())));
            followServer.setOnAction(event -> viewModel.followServer(row));
            // a tool that follows its server offers to declare the server, for all its tools at once
            boolean followsServer = approval && row.isRemote() && row.followsServerSaved();
            declareServer.setVisible(followsServer);
            declareServer.setManaged(followsServer);
            if (followsServer) {
                String server = row.saved().server();
                declareServer.setText(messages.get("settings.declareServer"));
                declareServer.setTooltip(new Tooltip(messages.get("settings.declareServerTip", server)));
                declareServer.setOnAction(event -> serverMenu(server).show(declareServer, Side.BOTTOM, 0, 0));
            }
            setGraphic(box);
        }

        private String approvalNote(ToolRow row) {
            if (row.isRemote()) {
                return remoteNote(row.saved());
            }
            return row.saved().approvalControl().configurable() ? ""
                    : messages.get("settings.fixed." + row.saved().approvalControl().name());
        }
    }

    /** The two declarations a server can be given, for every tool of it that has none of its own. */
    private ContextMenu serverMenu(String server) {
        MenuItem bound = new MenuItem(messages.get("settings.declareServer.bound", server));
        bound.setOnAction(event -> viewModel.declareServer(server, true));
        MenuItem free = new MenuItem(messages.get("settings.declareServer.free", server));
        free.setOnAction(event -> viewModel.declareServer(server, false));
        return new ContextMenu(bound, free);
    }

    /**
     * Where a remote tool's declaration comes from and who made it, then what its server claims: "declared for this
     * tool by maria · server says: read-only".
     */
    private String remoteNote(ToolSettingView tool) {
        RemoteDeclaration declaration = tool.declaration();
        String by = declaration.declaredBy() == null ? "" : messages.get("settings.by", declaration.declaredBy());
        String where;
        if (declaration.source() == RemoteDeclaration.Source.TOOL) {
            where = messages.get("settings.toolNote", by);
        } else if (declaration.declaration().declared()) {
            where = messages.get("settings.remoteNote", tool.server(), by);
        } else {
            where = messages.get("settings.undeclaredNote", tool.server());
        }
        return tool.serverClaims().isEmpty() ? where : messages.get("settings.noteWithClaims", where,
                tool.serverClaims());
    }

    /** A table row marked while its switches differ from the settings in force. */
    private static final class ChangedRow extends TableRow<ToolRow> {
        private final ChangeListener<Boolean> marker = (o, was, now) -> pseudoClassStateChanged(CHANGED, now);
        private ToolRow watched;

        @Override
        protected void updateItem(ToolRow row, boolean empty) {
            super.updateItem(row, empty);
            if (watched != null) {
                watched.changedProperty().removeListener(marker);
            }
            watched = empty ? null : row;
            if (watched != null) {
                watched.changedProperty().addListener(marker);
            }
            pseudoClassStateChanged(CHANGED, watched != null && watched.changedProperty().get());
        }
    }
}
