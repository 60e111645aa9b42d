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
import javafx.scene.chart.NumberAxis;
import javafx.scene.chart.XYChart;
import javafx.scene.control.Label;

/**
 * The denial browser's charts: the counts by reason, rule and tool as bars, and the events per day as a bar per
 * day (a line would draw slopes between days, and dips at a day only partly counted, that no event made).
 */
final class DenialCharts {
    /** The values a bar chart shows; the rest stay in the filter lists. */
    private static final int BARS = 8;
    private static final double MAX_DAY_BAR = 36;
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("MM-dd");
    private static final DateTimeFormatter DAY_OF_YEAR = DateTimeFormatter.ISO_LOCAL_DATE;

    private final DenialsViewModel viewModel;
    private final Messages messages;
    private final Map<EventDimension, BarChart<Number, String>> bars;
    private final Label dayTitle;
    private final BarChart<String, Number> dayChart;

    /** @param bars the bar chart of each dimension counted */
    DenialCharts(DenialsViewModel viewModel, Messages messages, Map<EventDimension, BarChart<Number, String>> bars,
                 Label dayTitle, BarChart<String, Number> dayChart) {
        this.viewModel = Objects.requireNonNull(viewModel, "viewModel");
        this.messages = Objects.requireNonNull(messages, "messages");
        this.bars = Map.copyOf(bars);
        this.dayTitle = Objects.requireNonNull(dayTitle, "dayTitle");
        this.dayChart = Objects.requireNonNull(dayChart, "dayChart");
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
        CountAxis.prepare((NumberAxis) dayChart.getYAxis(), locale);
        viewModel.byDay().addListener((ListChangeListener<DayCount>) change -> showDays());
        dayChart.widthProperty().addListener((o, was, now) -> fitDayBars());
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

    /** A bar per day from the first to the last day counted, days without events at zero. */
    private void showDays() {
        XYChart.Series<String, Number> series = new XYChart.Series<>();
        List<DayCount> days = viewModel.byDay();
        if (!days.isEmpty()) {
            LocalDate first = days.get(0).day();
            LocalDate last = days.get(days.size() - 1).day();
            // the year is shown only where the days cross one, so that every day's label is its own
            DateTimeFormatter label = first.getYear() == last.getYear() ? DAY : DAY_OF_YEAR;
            Map<LocalDate, Long> byDay = new HashMap<>();
            days.forEach(day -> byDay.put(day.day(), day.count()));
            for (LocalDate day = first; !day.isAfter(last); day = day.plusDays(1)) {
                series.getData().add(new XYChart.Data<>(label.format(day), byDay.getOrDefault(day, 0L)));
            }
        }
        CountAxis.fit((NumberAxis) dayChart.getYAxis(), viewModel.byDay().stream().mapToLong(DayCount::count).max()
                .orElse(0));
        // a new series each time: a category axis keeps stale categories when the data of a series is replaced
        dayChart.getData().setAll(List.of(series));
        fitDayBars();
    }

    /** Bars at most a few dozen pixels wide: one day alone is a bar, not a block filling the chart. */
    private void fitDayBars() {
        int days = dayChart.getData().isEmpty() ? 1 : Math.max(1, dayChart.getData().get(0).getData().size());
        double slot = Math.max(dayChart.getWidth() - 60, 100) / days;
        dayChart.setCategoryGap(Math.max(days > 45 ? 0 : 2, slot - MAX_DAY_BAR));
    }
}
