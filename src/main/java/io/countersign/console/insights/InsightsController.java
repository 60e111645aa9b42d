package io.countersign.console.insights;

import io.countersign.console.common.ScreenController;
import io.countersign.console.denials.TimeRange;
import io.countersign.engine.stats.StatsDimension;
import java.util.Objects;
import java.util.function.Function;
import javafx.beans.binding.Bindings;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.collections.ListChangeListener;
import javafx.fxml.FXML;
import javafx.scene.chart.BarChart;
import javafx.scene.chart.XYChart;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.DatePicker;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.util.StringConverter;

/** Wires the Insights screen: the range and grouping pickers, the table of figures, the chart of waiting cards. */
public final class InsightsController implements ScreenController {
    private final InsightsViewModel viewModel;

    @FXML
    private ComboBox<TimeRange> insightsRange;
    @FXML
    private DatePicker insightsFrom;
    @FXML
    private DatePicker insightsTo;
    @FXML
    private ComboBox<StatsDimension> insightsBy;
    @FXML
    private Button insightsRefresh;
    @FXML
    private Label insightsDays;
    @FXML
    private Label insightsProblem;
    @FXML
    private Label insightsLoading;
    @FXML
    private Label insightsTotal;
    @FXML
    private TableView<InsightRow> insightsTable;
    @FXML
    private TableColumn<InsightRow, Object> nameColumn;
    @FXML
    private TableColumn<InsightRow, Object> decisionsColumn;
    @FXML
    private TableColumn<InsightRow, Object> p50Column;
    @FXML
    private TableColumn<InsightRow, Object> p90Column;
    @FXML
    private TableColumn<InsightRow, Object> maxColumn;
    @FXML
    private TableColumn<InsightRow, Object> expiredColumn;
    @FXML
    private TableColumn<InsightRow, Object> escalatedColumn;
    @FXML
    private Label waitingSummary;
    @FXML
    private BarChart<String, Number> waitingChart;

    public InsightsController(InsightsViewModel viewModel) {
        this.viewModel = Objects.requireNonNull(viewModel, "viewModel");
    }

    @FXML
    private void initialize() {
        insightsRange.getItems().setAll(TimeRange.values());
        insightsRange.setConverter(converter(viewModel::rangeLabel));
        insightsRange.valueProperty().bindBidirectional(viewModel.rangeProperty());
        insightsFrom.valueProperty().bindBidirectional(viewModel.fromProperty());
        insightsTo.valueProperty().bindBidirectional(viewModel.toProperty());
        insightsBy.getItems().setAll(StatsDimension.values());
        insightsBy.setConverter(converter(viewModel::byLabel));
        insightsBy.valueProperty().bindBidirectional(viewModel.byProperty());
        insightsRefresh.setOnAction(event -> viewModel.load());
        insightsDays.textProperty().bind(viewModel.daysProperty());
        insightsProblem.textProperty().bind(viewModel.problemProperty());
        insightsProblem.visibleProperty().bind(viewModel.problemProperty().isNotEmpty());
        insightsProblem.managedProperty().bind(insightsProblem.visibleProperty());
        insightsLoading.visibleProperty().bind(viewModel.loadingProperty());
        insightsTotal.textProperty().bind(viewModel.totalProperty());
        waitingSummary.textProperty().bind(viewModel.waitingSummaryProperty());

        insightsTable.setItems(viewModel.rows());
        insightsTable.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        column(nameColumn, InsightRow::name);
        column(decisionsColumn, InsightRow::decisions);
        column(p50Column, InsightRow::p50);
        column(p90Column, InsightRow::p90);
        column(maxColumn, InsightRow::max);
        column(expiredColumn, InsightRow::expired);
        column(escalatedColumn, InsightRow::escalated);
        nameColumn.textProperty().bind(Bindings.createStringBinding(
                () -> viewModel.byLabel(viewModel.byProperty().get()), viewModel.byProperty()));

        XYChart.Series<String, Number> series = new XYChart.Series<>();
        waitingChart.getData().add(series);
        viewModel.waiting().addListener((ListChangeListener<InsightsViewModel.AgeCount>) change ->
                series.getData().setAll(viewModel.waiting().stream()
                        .map(band -> new XYChart.Data<String, Number>(band.label(), band.count())).toList()));
    }

    private static void column(TableColumn<InsightRow, Object> column, Function<InsightRow, Object> value) {
        column.setCellValueFactory(cell -> new ReadOnlyObjectWrapper<>(value.apply(cell.getValue())));
        column.setReorderable(false);
    }

    private static <T> StringConverter<T> converter(Function<T, String> label) {
        return new StringConverter<>() {
            @Override
            public String toString(T value) {
                return value == null ? "" : label.apply(value);
            }

            @Override
            public T fromString(String text) {
                throw new UnsupportedOperationException("the choices are picked, not typed");
            }
        };
    }

    @Override
    public void shown() {
        viewModel.load();
    }
}
