package io.countersign.console.denials;

import io.countersign.console.common.Messages;
import io.countersign.engine.event.DayCount;
import io.countersign.engine.event.EventCount;
import io.countersign.service.EventService.EventDimension;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import javafx.beans.binding.Bindings;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import javafx.scene.chart.BarChart;
import javafx.scene.chart.LineChart;
import javafx.scene.chart.NumberAxis;
import javafx.scene.chart.XYChart;
import javafx.scene.control.Label;
import javafx.util.StringConverter;

/** The denial browser's charts: the counts by reason, rule and tool as bars, and the events per day as a line. */
final class DenialCharts {
    /** The values a bar chart shows; the rest stay in the filter lists. */
    private static final int BARS = 8;
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("MM-dd");

    private final DenialsViewModel viewModel;
    private final Messages messages;
    private final Map<EventDimension, BarChart<Number, String>> bars;
    private final Label dayTitle;
    private final LineChart<Number, Number> dayChart;
    private final NumberAxis dayAxis;

    /** @param bars the bar chart of each dimension counted */
    DenialCharts(DenialsViewModel viewModel, Messages messages, Map<EventDimension, BarChart<Number, String>> bars,
                 Label dayTitle, LineChart<Number, Number> dayChart, NumberAxis dayAxis) {
        this.viewModel = Objects.requireNonNull(viewModel, "viewModel");
        this.messages = Objects.requireNonNull(messages, "messages");
        this.bars = Map.copyOf(bars);
        this.dayTitle = Objects.requireNonNull(dayTitle, "dayTitle");
        this.dayChart = Objects.requireNonNull(dayChart, "dayChart");
        this.dayAxis = Objects.requireNonNull(dayAxis, "dayAxis");
    }

    /** Shows the view model's counts, and each new count as it arrives. */
    void wire() {
        Locale locale = messages.bundle().getLocale();
        bars.forEach((dimension, chart) -> {
            CountAxis.prepare((NumberAxis) chart.getXAxis(), locale);
            ObservableList<EventCount> counts = viewModel.counts(dimension);
            counts.addListener((ListChangeListener<EventCount>) change -> showBars(chart, counts));
            showBars(chart, counts);
        });
        dayAxis.setTickLabelFormatter(new StringConverter<>() {
            @Override
            public String toString(Number epochDay) {
                return DAY.format(LocalDate.ofEpochDay(Math.round(epochDay.doubleValue())));
            }

            @Override
            public Number fromString(String text) {
                return LocalDate.parse(text).toEpochDay();
            }
        });
        CountAxis.prepare((NumberAxis) dayChart.getYAxis(), locale);
        viewModel.byDay().addListener((ListChangeListener<DayCount>) change -> showDays());
        dayTitle.textProperty().bind(Bindings.createStringBinding(() ->
                viewModel.totalProperty().get() < 0 ? messages.get("denials.chart.day")
                        : messages.get("denials.chart.dayTotal", viewModel.totalProperty().get()),
                viewModel.totalProperty()));
    }

    /** The most frequent values, the most frequent on top. */
    private static void showBars(BarChart<Number, String> chart, List<EventCount> counts) {
        XYChart.Series<Number, String> series = new XYChart.Series<>();
        List<EventCount> top = counts.subList(0, Math.min(BARS, counts.size()));
        for (int i = top.size() - 1; i >= 0; i--) {
            series.getData().add(new XYChart.Data<>(top.get(i).count(), top.get(i).key()));
        }
        CountAxis.fit((NumberAxis) chart.getXAxis(), top.stream().mapToLong(EventCount::count).max().orElse(0));
        // a new series each time: a category axis keeps stale categories when the data of a series is replaced
        chart.getData().setAll(List.of(series));
        // bars keep a readable thickness however few values there are
        double slot = Math.max(chart.getHeight() - 60, 100) / Math.max(top.size(), 1);
        chart.setCategoryGap(Math.max(6, slot - 28));
    }

    /** A point per day from the first to the last day counted, days without events at zero. */
    private void showDays() {
        XYChart.Series<Number, Number> series = new XYChart.Series<>();
        List<DayCount> days = viewModel.byDay();
        if (!days.isEmpty()) {
            long first = days.get(0).day().toEpochDay();
            long last = days.get(days.size() - 1).day().toEpochDay();
            Map<Long, Long> byDay = new HashMap<>();
            days.forEach(day -> byDay.put(day.day().toEpochDay(), day.count()));
            for (long day = first; day <= last; day++) {
                series.getData().add(new XYChart.Data<>(day, byDay.getOrDefault(day, 0L)));
            }
            // a lone day sits in the middle of a three-day axis rather than on an axis of its own making
            long margin = first == last ? 1 : 0;
            dayAxis.setAutoRanging(false);
            dayAxis.setLowerBound(first - margin);
            dayAxis.setUpperBound(last + margin);
            dayAxis.setTickUnit(Math.max(1, Math.ceil((last - first + 2 * margin) / 6.0)));
            dayChart.setCreateSymbols(last - first < 45);
        }
        CountAxis.fit((NumberAxis) dayChart.getYAxis(), viewModel.byDay().stream().mapToLong(DayCount::count).max()
                .orElse(0));
        dayChart.getData().setAll(List.of(series));
    }
}
