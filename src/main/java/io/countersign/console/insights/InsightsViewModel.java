package io.countersign.console.insights;

import io.countersign.console.common.FailureText;
import io.countersign.console.common.Messages;
import io.countersign.console.common.Tasks;
import io.countersign.console.denials.TimeRange;
import io.countersign.engine.Actor;
import io.countersign.engine.stats.DecisionLatencyRow;
import io.countersign.engine.stats.DecisionStats;
import io.countersign.engine.stats.DecisionStatsQuery;
import io.countersign.engine.stats.LatencyBuckets;
import io.countersign.engine.stats.LatencyText;
import io.countersign.engine.stats.StatsDimension;
import io.countersign.engine.stats.WaitingAge;
import io.countersign.engine.stats.WaitingNow;
import io.countersign.service.DecisionStatsService;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The Insights screen beside the denial browser: how long cards waited for a decision over a range of whole UTC
 * days, by agent, tool or operator (p50, p90, the largest, expired and escalated), the total, and the cards waiting
 * now by age. A change of the range or the grouping reads again; an answer to an earlier reading is dropped.
 */
public final class InsightsViewModel {
    private final DecisionStatsService service;
    private final Actor actor;
    private final Executor executor;
    private final Messages messages;
    private final Clock clock;

    private final ObjectProperty<TimeRange> range = new SimpleObjectProperty<>(TimeRange.LAST_7_DAYS);
    private final ObjectProperty<LocalDate> from = new SimpleObjectProperty<>();
    private final ObjectProperty<LocalDate> to = new SimpleObjectProperty<>();
    private final ObjectProperty<StatsDimension> by = new SimpleObjectProperty<>(StatsDimension.AGENT);
    private final ObservableList<InsightRow> rows = FXCollections.observableArrayList();
    private final ObservableList<AgeCount> waiting = FXCollections.observableArrayList();
    private final ReadOnlyStringWrapper total = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper waitingSummary = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper days = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper problem = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper loading = new ReadOnlyBooleanWrapper();
    /** The reading whose answer is shown; answers to earlier ones are dropped. */
    private long reading;
    /** Set while a preset clears the picked days, so that the clearing does not make the range custom. */
    private boolean applying;

    /** The cards of one age band waiting now, for the chart. */
    public record AgeCount(String label, long count) {
    }

    public InsightsViewModel(DecisionStatsService service, Actor actor, Executor executor,
                             Messages messages, Clock clock) {
        this.service = Objects.requireNonNull(service, "service");
        this.actor = Objects.requireNonNull(actor, "actor");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.messages = Objects.requireNonNull(messages, "messages");
        this.clock = Objects.requireNonNull(clock, "clock");
        range.addListener((o, was, now) -> {
            if (now != TimeRange.CUSTOM) {
                applying = true;
                from.set(null);
                to.set(null);
                applying = false;
            }
            load();
        });
        for (ObjectProperty<LocalDate> date : List.of(from, to)) {
            date.addListener((o, was, now) -> {
                if (!applying) {
                    applying = true;
                    range.set(TimeRange.CUSTOM);
                    applying = false;
                    load();
                }
            });
        }
        by.addListener((o, was, now) -> load());
    }

    /** Reads the statistics of the range and grouping chosen. */
    public void load() {
        if (applying) {
            return;
        }
        Optional<DecisionStatsQuery> query = query();
        if (query.isEmpty()) {
            return;
        }
        long mine = ++reading;
        loading.set(true);
        Tasks.create(() -> service.decisions(actor, query.get()))
                .onSuccess(stats -> {
                    if (mine == reading) {
                        loading.set(false);
                        show(stats);
                    }
                })
                .onError(failure -> {
                    if (mine == reading) {
                        loading.set(false);
                        problem.set(messages.get("insights.loadFailed", FailureText.of(failure)));
                    }
                })
                .runOnce(executor);
    }

    /** The whole UTC days of the range; empty, with the problem said, when the picked days make none. */
    private Optional<DecisionStatsQuery> query() {
        LocalDate today = LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC);
        TimeRange chosen = range.get() == null ? TimeRange.LAST_7_DAYS : range.get();
        LocalDate first;
        LocalDate last;
        if (chosen == TimeRange.CUSTOM) {
            first = from.get();
            last = to.get();
            if (first != null && last != null && last.isBefore(first)) {
                problem.set(messages.get("insights.rangeEmpty", first, last));
                return Optional.empty();
            }
        } else if (chosen.span().isPresent()) {
            first = LocalDate.ofInstant(clock.instant().minus(chosen.span().get()), ZoneOffset.UTC);
            last = today;
        } else {
            first = null;
            last = null;
        }
        problem.set("");
        days.set(daysText(first, last));
        return Optional.of(new DecisionStatsQuery(first, last, by.get() == null ? StatsDimension.AGENT : by.get()));
    }

    private String daysText(LocalDate first, LocalDate last) {
        String error = String.format(Locale.ROOT, "%.1f", LatencyBuckets.RELATIVE_ERROR * 100);
        if (first == null && last == null) {
            return messages.get("insights.days.all", error);
        }
        if (first == null) {
            return messages.get("insights.days.through", last, error);
        }
        if (last == null) {
            return messages.get("insights.days.from", first, error);
        }
        return first.equals(last) ? messages.get("insights.days.one", first, error)
                : messages.get("insights.days", first, last, error);
    }

    private void show(DecisionStats stats) {
        rows.setAll(stats.rows().stream().map(InsightRow::of).toList());
        DecisionLatencyRow all = stats.total();
        total.set(all.latencies().decisions() == 0
                ? messages.get("insights.total.none", all.expired(), all.escalated())
                : messages.get("insights.total", all.latencies().decisions(), LatencyText.of(all.latencies().p50()),
                LatencyText.of(all.latencies().p90()), LatencyText.of(all.latencies().max()), all.expired(),
                all.escalated()));
        WaitingNow now = stats.waiting();
        waiting.setAll(Arrays.stream(WaitingAge.values())
                .map(band -> new AgeCount(messages.get("insights.age." + band.name()), now.byAge().get(band)))
                .toList());
        waitingSummary.set(now.total() == 0 ? messages.get("insights.waiting.none")
                : messages.get("insights.waiting", now.total(),
                LatencyText.of(Duration.between(now.oldestSince(), now.at()).isNegative() ? Duration.ZERO
                        : Duration.between(now.oldestSince(), now.at()))));
    }

    /** The label of a grouping, for its picker. */
    public String byLabel(StatsDimension dimension) {
        return messages.get("insights.by." + dimension.code());
    }

    /** The label of a time range, as the denial browser names it. */
    public String rangeLabel(TimeRange shown) {
        return messages.get("denials.range." + shown.name());
    }

    public ObjectProperty<TimeRange> rangeProperty() {
        return range;
    }

    /** The first picked day, inclusive (UTC). */
    public ObjectProperty<LocalDate> fromProperty() {
        return from;
    }

    /** The last picked day, inclusive (UTC). */
    public ObjectProperty<LocalDate> toProperty() {
        return to;
    }

    public ObjectProperty<StatsDimension> byProperty() {
        return by;
    }

    /** The figures by the grouping, most decisions first. */
    public ObservableList<InsightRow> rows() {
        return rows;
    }

    /** The cards waiting now, one entry per age band, youngest first. */
    public ObservableList<AgeCount> waiting() {
        return waiting;
    }

    /** Every decision of the range, each once: how many, p50, p90, the largest, expired, escalated. */
    public ReadOnlyStringProperty totalProperty() {
        return total.getReadOnlyProperty();
    }

    /** How many cards wait now and for how long the oldest has. */
    public ReadOnlyStringProperty waitingSummaryProperty() {
        return waitingSummary.getReadOnlyProperty();
    }

    /** Which whole UTC days the figures count, and the percentiles' error. */
    public ReadOnlyStringProperty daysProperty() {
        return days.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty problemProperty() {
        return problem.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty loadingProperty() {
        return loading.getReadOnlyProperty();
    }
}
