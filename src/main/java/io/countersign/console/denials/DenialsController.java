package io.countersign.console.denials;

import io.countersign.console.common.Messages;
import io.countersign.console.common.ScreenController;
import io.countersign.console.common.ShownText;
import io.countersign.console.controls.KeptPaneWidth;
import io.countersign.engine.event.EventCount;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.service.EventService.EventDimension;
import java.io.File;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import javafx.animation.PauseTransition;
import javafx.beans.binding.Bindings;
import javafx.beans.property.DoubleProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.StringProperty;
import javafx.collections.ListChangeListener;
import javafx.fxml.FXML;
import javafx.scene.chart.BarChart;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.DatePicker;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import javafx.scene.input.MouseButton;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.stage.FileChooser;
import javafx.util.Duration;
import javafx.util.StringConverter;

/** Wires the denial browser's view to its view model. */
public final class DenialsController implements ScreenController {
    /** How long typing pauses before a text filter asks again. */
    private static final Duration TYPING_PAUSE = Duration.millis(300);

    private final DenialsViewModel viewModel;
    private final AuditStatus audit;
    private final Messages messages;

    @FXML
    private Button exportButton;
    @FXML
    private Button purgeButton;
    @FXML
    private ComboBox<TimeRange> rangeFilter;
    @FXML
    private DatePicker fromDate;
    @FXML
    private DatePicker toDate;
    @FXML
    private ComboBox<EventType> typeFilter;
    @FXML
    private TextField search;
    @FXML
    private ComboBox<String> ruleFilter;
    @FXML
    private ComboBox<String> reasonFilter;
    @FXML
    private ComboBox<String> toolFilter;
    @FXML
    private TextField agentFilter;
    @FXML
    private TextField personFilter;
    @FXML
    private Button clearFilters;
    @FXML
    private HBox exportBar;
    @FXML
    private ProgressBar exportProgress;
    @FXML
    private Label exportStatus;
    @FXML
    private Button cancelExport;
    @FXML
    private Label purgeStatus;
    @FXML
    private Label auditStatus;
    @FXML
    private Label problem;
    @FXML
    private TableView<GovernanceEvent> table;
    @FXML
    private TableColumn<GovernanceEvent, String> timeColumn;
    @FXML
    private TableColumn<GovernanceEvent, String> typeColumn;
    @FXML
    private TableColumn<GovernanceEvent, String> reasonColumn;
    @FXML
    private TableColumn<GovernanceEvent, String> ruleColumn;
    @FXML
    private TableColumn<GovernanceEvent, String> toolColumn;
    @FXML
    private TableColumn<GovernanceEvent, String> agentColumn;
    @FXML
    private TableColumn<GovernanceEvent, String> actorColumn;
    @FXML
    private TableColumn<GovernanceEvent, String> runColumn;
    @FXML
    private Button newerButton;
    @FXML
    private Button olderButton;
    @FXML
    private Label position;
    @FXML
    private Label loading;
    @FXML
    private BarChart<Number, String> reasonChart;
    @FXML
    private BarChart<Number, String> ruleChart;
    @FXML
    private BarChart<Number, String> toolChart;
    @FXML
    private Label dayTitle;
    @FXML
    private BarChart<String, Number> dayChart;
    @FXML
    private Label noSelection;
    @FXML
    private GridPane detailGrid;
    @FXML
    private Button openRun;
    @FXML
    private SplitPane split;
    private final DoubleProperty detailWidth;

    /** @param detailWidth the detail pane's width the person chose, kept through narrow windows */
    public DenialsController(DenialsViewModel viewModel, AuditStatus audit, Messages messages,
                             DoubleProperty detailWidth) {
        this.viewModel = Objects.requireNonNull(viewModel, "viewModel");
        this.audit = Objects.requireNonNull(audit, "audit");
        this.messages = Objects.requireNonNull(messages, "messages");
        this.detailWidth = Objects.requireNonNull(detailWidth, "detailWidth");
    }

    @FXML
    private void initialize() {
        wireFilters();
        wireTable();
        wireCharts();
        wireDetail();
        wireExport();
        KeptPaneWidth.keep(split, false, detailWidth);
        purgeButton.setVisible(viewModel.purge().mayPurge());
        purgeButton.setManaged(viewModel.purge().mayPurge());
        purgeButton.setOnAction(event -> new PurgeDialogs(viewModel.purge(), messages, purgeButton).ask());
        ShownText.bind(purgeStatus, viewModel.purge().statusProperty());
        auditStatus.textProperty().bind(audit.statusProperty());
        viewModel.purge().statusProperty().addListener((property, was, now) -> audit.refresh());
        audit.refresh();
        ShownText.bind(problem, viewModel.problemProperty());
    }

    @Override
    public void shown() {
        viewModel.refresh();
    }

    /** The first page and the charts, so that their rows and bars are styled before the browser first opens. */
    @Override
    public void preparedHidden() {
        viewModel.refresh();
    }

    private void wireFilters() {
        DenialFilterForm filters = viewModel.filters();
        rangeFilter.getItems().setAll(TimeRange.values());
        rangeFilter.setConverter(converter(filters::rangeLabel));
        rangeFilter.valueProperty().bindBidirectional(filters.rangeProperty());
        fromDate.valueProperty().bindBidirectional(filters.fromProperty());
        toDate.valueProperty().bindBidirectional(filters.toProperty());

        List<EventType> types = new ArrayList<>();
        types.add(null);
        types.addAll(List.of(EventType.values()));
        typeFilter.getItems().setAll(types);
        typeFilter.setConverter(converter(filters::typeLabel));
        // the empty choice shows the prompt text
        typeFilter.setPromptText(filters.typeLabel(null));
        typeFilter.valueProperty().bindBidirectional(filters.typeProperty());

        choices(ruleFilter, filters.ruleProperty(), EventDimension.RULE, "denials.filter.anyRule");
        choices(reasonFilter, filters.reasonProperty(), EventDimension.REASON, "denials.filter.anyReason");
        choices(toolFilter, filters.toolProperty(), EventDimension.TOOL, "denials.filter.anyTool");

        typed(search, filters.searchProperty());
        typed(agentFilter, filters.agentProperty());
        typed(personFilter, filters.personProperty());
        clearFilters.setOnAction(event -> filters.clearFilters());
    }

    /** A filter list over the values the counts found, with "any" first; the chosen value always stays listed. */
    private void choices(ComboBox<String> box, StringProperty chosen, EventDimension dimension, String anyKey) {
        String any = messages.get(anyKey);
        box.setConverter(converter(value -> value == null || value.isEmpty() ? any : value));
        boolean[] filling = {false};
        Runnable fill = () -> {
            List<String> values = new ArrayList<>();
            values.add("");
            if (!chosen.get().isEmpty()) {
                values.add(chosen.get());
            }
            viewModel.counts(dimension).stream().map(EventCount::key)
                    .filter(key -> !key.equals(chosen.get())).forEach(values::add);
            // replacing the items moves the selection by index; that is no choice of the person's
            filling[0] = true;
            box.getItems().setAll(values);
            box.setValue(chosen.get());
            filling[0] = false;
        };
        fill.run();
        viewModel.counts(dimension).addListener((ListChangeListener<EventCount>) change -> fill.run());
        box.valueProperty().addListener((o, was, now) -> {
            if (!filling[0] && now != null && !now.equals(chosen.get())) {
                chosen.set(now);
            }
        });
        chosen.addListener((o, was, now) -> fill.run());
    }

    /** A text filter that asks again once typing pauses, or at once on Enter. */
    private void typed(TextField field, StringProperty filter) {
        PauseTransition pause = new PauseTransition(TYPING_PAUSE);
        pause.setOnFinished(event -> filter.set(field.getText()));
        field.textProperty().addListener((o, was, now) -> pause.playFromStart());
        field.setOnAction(event -> {
            pause.stop();
            filter.set(field.getText());
        });
        filter.addListener((o, was, now) -> {
            if (!now.equals(field.getText())) {
                field.setText(now);
                pause.stop();
            }
        });
    }

    private void wireTable() {
        table.setItems(viewModel.rows());
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        column(timeColumn, viewModel.texts()::shortTimeOf, false);
        column(typeColumn, event -> event.type().code(), true);
        column(reasonColumn, GovernanceEvent::reasonCode, true);
        column(ruleColumn, GovernanceEvent::ruleId, true);
        column(toolColumn, GovernanceEvent::toolName, true);
        column(agentColumn, GovernanceEvent::agentConfiguration, false);
        column(actorColumn, GovernanceEvent::actor, false);
        column(runColumn, event -> event.runId() == null ? "" : messages.shortRunId(event.runId()), true);
        table.getSelectionModel().selectedItemProperty().addListener((o, was, now) -> {
            if (now != viewModel.selectedProperty().get()) {
                viewModel.selectedProperty().set(now);
            }
        });
        viewModel.selectedProperty().addListener((o, was, now) -> {
            if (now == null) {
                table.getSelectionModel().clearSelection();
            } else if (table.getSelectionModel().getSelectedItem() != now) {
                table.getSelectionModel().select(now);
            }
        });
        table.setRowFactory(view -> {
            TableRow<GovernanceEvent> row = new TableRow<>();
            row.setOnMouseClicked(event -> {
                if (event.getButton() == MouseButton.PRIMARY && event.getClickCount() == 2 && !row.isEmpty()) {
                    viewModel.openSelectedRun();
                }
            });
            return row;
        });
        table.setOnKeyPressed(event -> {
            if (event.getCode() == KeyCode.ENTER) {
                viewModel.openSelectedRun();
            }
        });
        viewModel.rows().addListener((ListChangeListener<GovernanceEvent>) change -> table.scrollTo(0));
        newerButton.disableProperty().bind(viewModel.hasNewerProperty().not());
        olderButton.disableProperty().bind(viewModel.hasOlderProperty().not());
        newerButton.setOnAction(event -> viewModel.newer());
        olderButton.setOnAction(event -> viewModel.older());
        position.textProperty().bind(viewModel.positionProperty());
        loading.visibleProperty().bind(viewModel.loadingProperty());
    }

    private static void column(TableColumn<GovernanceEvent, String> column, Function<GovernanceEvent, String> value,
                               boolean code) {
        column.setCellValueFactory(cell -> new ReadOnlyStringWrapper(
                Objects.requireNonNullElse(value.apply(cell.getValue()), "")).getReadOnlyProperty());
        column.setReorderable(false);
        column.setSortable(false);
        if (code) {
            column.getStyleClass().add("mono");
        }
    }

    private void wireCharts() {
        Map<EventDimension, BarChart<Number, String>> bars = new EnumMap<>(EventDimension.class);
        bars.put(EventDimension.REASON, reasonChart);
        bars.put(EventDimension.RULE, ruleChart);
        bars.put(EventDimension.TOOL, toolChart);
        new DenialCharts(viewModel, messages, bars, dayTitle, dayChart).wire();
    }

    private void wireDetail() {
        viewModel.details().addListener((ListChangeListener<EventField>) change -> showDetail());
        noSelection.visibleProperty().bind(viewModel.selectedProperty().isNull());
        noSelection.managedProperty().bind(noSelection.visibleProperty());
        openRun.disableProperty().bind(Bindings.createBooleanBinding(() ->
                viewModel.selectedProperty().get() == null || viewModel.selectedProperty().get().runId() == null,
                viewModel.selectedProperty()));
        openRun.setOnAction(event -> viewModel.openSelectedRun());
    }

    /** Each label above its value, so long codes and ids keep the pane's whole width. */
    private void showDetail() {
        detailGrid.getChildren().clear();
        int row = 0;
        for (EventField field : viewModel.details()) {
            Label label = new Label(field.label());
            label.getStyleClass().add("detail-label");
            Label value = new Label(field.value());
            value.setWrapText(true);
            value.getStyleClass().add(field.code() ? "detail-code" : "detail-value");
            if (field.code()) {
                value.getStyleClass().add("mono");
            }
            detailGrid.addRow(row++, label);
            detailGrid.addRow(row++, value);
        }
    }

    private void wireExport() {
        DenialsExport export = viewModel.export();
        // not disabled while an export runs: a disabled button would hand the focus on, to "Purge old events…",
        // where one Space opens the purge; a second export simply waits for the first to end
        exportButton.setOnAction(event -> {
            if (!export.runningProperty().get()) {
                chooseExportTarget();
            }
        });
        exportProgress.progressProperty().bind(export.progressProperty());
        exportProgress.visibleProperty().bind(export.runningProperty());
        exportProgress.managedProperty().bind(exportProgress.visibleProperty());
        cancelExport.visibleProperty().bind(export.runningProperty());
        cancelExport.managedProperty().bind(cancelExport.visibleProperty());
        cancelExport.setOnAction(event -> {
            export.cancel();
            // Cancel hides; the focus goes back to the export it cancelled rather than on to the next button
            exportButton.requestFocus();
        });
        exportStatus.textProperty().bind(export.statusProperty());
        exportBar.visibleProperty().bind(export.statusProperty().isNotEmpty());
        exportBar.managedProperty().bind(exportBar.visibleProperty());
    }

    private void chooseExportTarget() {
        FileChooser chooser = new FileChooser();
        chooser.setTitle(messages.get("denials.export.title"));
        chooser.setInitialFileName(messages.get("denials.export.fileName", LocalDate.now()));
        chooser.getExtensionFilters().add(new FileChooser.ExtensionFilter(messages.get("denials.export.csv"),
                "*.csv"));
        File chosen = chooser.showSaveDialog(exportButton.getScene().getWindow());
        if (chosen != null) {
            viewModel.export().start(chosen.toPath());
        }
    }

    private static <T> StringConverter<T> converter(Function<T, String> label) {
        return new StringConverter<>() {
            @Override
            public String toString(T value) {
                return label.apply(value);
            }

            @Override
            public T fromString(String text) {
                throw new UnsupportedOperationException("the list is not editable");
            }
        };
    }
}
