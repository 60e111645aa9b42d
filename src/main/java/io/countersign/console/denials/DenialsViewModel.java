package io.countersign.console.denials;

import io.countersign.console.common.ConnectionState;
import io.countersign.console.common.Messages;
import io.countersign.console.common.Tasks;
import io.countersign.engine.Actor;
import io.countersign.engine.EventType;
import io.countersign.engine.GovernanceEvent;
import io.countersign.service.EventService;
import io.countersign.service.EventService.EventDimension;
import io.countersign.service.NotPermittedException;
import io.countersign.service.Operation;
import io.countersign.store.DayCount;
import io.countersign.store.EventCount;
import io.countersign.store.EventFilter;
import io.countersign.store.EventPage;
import io.countersign.store.PageRequest;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import javafx.beans.Observable;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyDoubleWrapper;
import javafx.beans.property.ReadOnlyLongProperty;
import javafx.beans.property.ReadOnlyLongWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The denial browser: the governance events of a filter, newest first, a page at a time by keyset, with their
 * counts by reason, rule, tool and day, a CSV export of the filter and, for admins, the retention purge.
 * Every change of the filter asks again; an answer for a filter that has since changed is dropped, so a slow
 * query never overwrites a newer one.
 */
public final class DenialsViewModel {
    /** Events in one page of the table. */
    public static final int PAGE_SIZE = 100;
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
    private static final DateTimeFormatter SHORT_TIME = DateTimeFormatter.ofPattern("MM-dd HH:mm");

    private final EventService service;
    private final Actor actor;
    private final Executor executor;
    private final Messages messages;
    private final ConnectionState connection;
    private final Clock clock;
    private final Consumer<String> openRun;

    private final ObjectProperty<TimeRange> range = new SimpleObjectProperty<>(TimeRange.LAST_7_DAYS);
    private final ObjectProperty<LocalDate> from = new SimpleObjectProperty<>();
    private final ObjectProperty<LocalDate> to = new SimpleObjectProperty<>();
    private final ObjectProperty<EventType> type = new SimpleObjectProperty<>();
    private final StringProperty rule = new SimpleStringProperty("");
    private final StringProperty reason = new SimpleStringProperty("");
    private final StringProperty tool = new SimpleStringProperty("");
    private final StringProperty agent = new SimpleStringProperty("");
    private final StringProperty person = new SimpleStringProperty("");
    private final StringProperty search = new SimpleStringProperty("");

    private final ReadOnlyObjectWrapper<EventFilter> filter = new ReadOnlyObjectWrapper<>();
    private final ObservableList<GovernanceEvent> rows = FXCollections.observableArrayList();
    private final ObjectProperty<GovernanceEvent> selected = new SimpleObjectProperty<>();
    private final ObservableList<EventField> details = FXCollections.observableArrayList();
    private final ReadOnlyBooleanWrapper hasNewer = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper hasOlder = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper loading = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper position = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper problem = new ReadOnlyStringWrapper("");
    private final Map<EventDimension, ObservableList<EventCount>> counts = new EnumMap<>(EventDimension.class);
    private final ObservableList<DayCount> byDay = FXCollections.observableArrayList();
    private final ReadOnlyLongWrapper total = new ReadOnlyLongWrapper(-1);
    private final ReadOnlyBooleanWrapper chartsLoading = new ReadOnlyBooleanWrapper();

    private final ReadOnlyBooleanWrapper exporting = new ReadOnlyBooleanWrapper();
    private final ReadOnlyDoubleWrapper exportProgress = new ReadOnlyDoubleWrapper();
    private final ReadOnlyStringWrapper exportStatus = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper purgeStatus = new ReadOnlyStringWrapper("");

    /** Bumped by every page request and every filter; read on the workers to skip work nobody waits for. */
    private final AtomicInteger pageGeneration = new AtomicInteger();
    private final AtomicInteger chartGeneration = new AtomicInteger();
    private long firstRow;
    private EventPage page;
    private CsvExport export;
    private boolean applying;

    /**
     * @param openRun shows a run's timeline, given its id
     */
    public DenialsViewModel(EventService service, Actor actor, Executor executor, Messages messages,
                            ConnectionState connection, Clock clock, Consumer<String> openRun) {
        this.service = Objects.requireNonNull(service, "service");
        this.actor = Objects.requireNonNull(actor, "actor");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.messages = Objects.requireNonNull(messages, "messages");
        this.connection = Objects.requireNonNull(connection, "connection");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.openRun = Objects.requireNonNull(openRun, "openRun");
        for (EventDimension dimension : EventDimension.values()) {
            counts.put(dimension, FXCollections.observableArrayList());
        }
        range.addListener((o, was, now) -> {
            if (now != TimeRange.CUSTOM) {
                // a preset replaces picked dates; clearing them must not turn the range back into CUSTOM
                applying = true;
                from.set(null);
                to.set(null);
                applying = false;
            }
            apply();
        });
        for (ObjectProperty<LocalDate> date : List.of(from, to)) {
            date.addListener((o, was, now) -> {
                if (!applying) {
                    if (range.get() != TimeRange.CUSTOM) {
                        applying = true;
                        range.set(TimeRange.CUSTOM);
                        applying = false;
                    }
                    apply();
                }
            });
        }
        for (Observable input : List.of(type, rule, reason, tool, agent, person, search)) {
            input.addListener(changed -> apply());
        }
        selected.addListener((o, was, now) -> details.setAll(now == null ? List.of() : fieldsOf(now)));
    }

    /** Asks again for the current filter, with preset ranges measured back from now. */
    public void refresh() {
        apply();
    }

    /** Empties every filter but the time range. */
    public void clearFilters() {
        applying = true;
        type.set(null);
        for (StringProperty text : List.of(rule, reason, tool, agent, person, search)) {
            text.set("");
        }
        applying = false;
        apply();
    }

    private void apply() {
        if (applying) {
            return;
        }
        EventFilter built;
        try {
            built = build();
        } catch (IllegalArgumentException e) {
            problem.set(e.getMessage());
            return;
        }
        problem.set("");
        filter.set(built);
        firstRow = 0;
        int charts = chartGeneration.incrementAndGet();
        chartsLoading.set(true);
        total.set(-1);
        // the counts scan every matching event; they start once the page is in, so the table never waits on them
        loadPage(built, PageRequest.first(PAGE_SIZE), () -> loadCharts(built, charts));
    }

    private EventFilter build() {
        Instant start = null;
        Instant end = null;
        if (range.get() == TimeRange.CUSTOM) {
            if (from.get() != null && to.get() != null && to.get().isBefore(from.get())) {
                throw new IllegalArgumentException(messages.get("denials.rangeEmpty", from.get(), to.get()));
            }
            start = from.get() == null ? null : from.get().atStartOfDay(clock.getZone()).toInstant();
            end = to.get() == null ? null : to.get().plusDays(1).atStartOfDay(clock.getZone()).toInstant();
        } else if (range.get().span().isPresent()) {
            start = clock.instant().minus(range.get().span().get());
        }
        return EventFilter.all().between(start, end)
                .ofTypes(type.get() == null ? Set.of() : Set.of(type.get()))
                .withRuleId(given(rule)).withReasonCode(given(reason)).withToolName(given(tool))
                .withAgentConfiguration(given(agent)).withActor(given(person)).withText(search.get());
    }

    private static String given(StringProperty text) {
        return text.get() == null || text.get().isBlank() ? null : text.get().strip();
    }

    /** Shows the next newer page, if there is one. */
    public void newer() {
        if (page != null && page.previous() != null) {
            loadPage(filter.get(), PageRequest.before(page.previous(), PAGE_SIZE), () -> {
            });
        }
    }

    /** Shows the next older page, if there is one. */
    public void older() {
        if (page != null && page.next() != null) {
            loadPage(filter.get(), PageRequest.after(page.next(), PAGE_SIZE), () -> {
            });
        }
    }

    /** Reads a page; {@code then} runs after it is shown or has failed, unless a newer request replaced it. */
    private void loadPage(EventFilter shown, PageRequest request, Runnable then) {
        int asked = pageGeneration.incrementAndGet();
        loading.set(true);
        Tasks.create(() -> asked == pageGeneration.get() ? service.page(actor, shown, request) : null)
                .onSuccess(result -> {
                    if (asked == pageGeneration.get() && result != null) {
                        connection.succeeded();
                        loading.set(false);
                        show(result, request.direction());
                        then.run();
                    }
                })
                .onError(failure -> {
                    if (asked == pageGeneration.get()) {
                        loading.set(false);
                        fail(failure);
                        then.run();
                    }
                })
                .runOnce(executor);
    }

    private void show(EventPage shown, PageRequest.Direction direction) {
        if (shown.isFirst()) {
            firstRow = 0;
        } else if (direction == PageRequest.Direction.AFTER) {
            firstRow += page.events().size();
        } else if (direction == PageRequest.Direction.BEFORE) {
            firstRow = Math.max(0, firstRow - shown.events().size());
        }
        page = shown;
        GovernanceEvent kept = selected.get();
        rows.setAll(shown.events());
        selected.set(kept != null && rows.contains(kept) ? kept : null);
        hasNewer.set(shown.previous() != null);
        hasOlder.set(shown.next() != null);
        showPosition();
    }

    private void showPosition() {
        if (page == null) {
            return;
        }
        if (rows.isEmpty()) {
            position.set(messages.get("denials.position.none"));
        } else if (total.get() >= 0) {
            position.set(messages.get("denials.position", firstRow + 1, firstRow + rows.size(), total.get()));
        } else {
            position.set(messages.get("denials.position.counting", firstRow + 1, firstRow + rows.size()));
        }
    }

    private void loadCharts(EventFilter shown, int asked) {
        if (asked != chartGeneration.get()) {
            return;
        }
        ZoneOffset offset = clock.getZone().getRules().getOffset(clock.instant());
        Tasks.create(() -> asked == chartGeneration.get() ? service.charts(actor, shown, offset) : null)
                .onSuccess(result -> {
                    if (asked == chartGeneration.get() && result != null) {
                        counts.get(EventDimension.REASON).setAll(result.byReason());
                        counts.get(EventDimension.RULE).setAll(result.byRule());
                        counts.get(EventDimension.TOOL).setAll(result.byTool());
                        byDay.setAll(result.byDay());
                        total.set(result.total());
                        showPosition();
                        chartsLoading.set(false);
                    }
                })
                .onError(failure -> {
                    if (asked == chartGeneration.get()) {
                        chartsLoading.set(false);
                        fail(failure);
                    }
                })
                .runOnce(executor);
    }

    private void fail(Throwable failure) {
        if (!(failure instanceof NotPermittedException)) {
            connection.failed(failure);
        }
        problem.set(messages.get("denials.failed", String.valueOf(failure.getMessage())));
    }

    /** Opens the timeline of the selected event's run. */
    public void openSelectedRun() {
        GovernanceEvent shown = selected.get();
        if (shown != null && shown.runId() != null) {
            openRun.accept(shown.runId());
        }
    }

    /**
     * Starts writing the events of the current filter as CSV to a file, in the background. The file appears
     * only once the export is complete.
     */
    public void export(Path target) {
        Objects.requireNonNull(target, "target");
        if (exporting.get() || filter.get() == null) {
            return;
        }
        CsvExport started = new CsvExport(service, actor, filter.get(), target);
        export = started;
        exporting.set(true);
        exportProgress.bind(started.progressProperty());
        exportStatus.set(messages.get("denials.export.running", target.getFileName()));
        started.setOnSucceeded(event -> exportEnded(messages.get("denials.export.done", started.getValue(),
                started.target())));
        started.setOnCancelled(event -> exportEnded(messages.get("denials.export.cancelled")));
        started.setOnFailed(event -> exportEnded(messages.get("denials.export.failed",
                String.valueOf(started.getException().getMessage()))));
        executor.execute(started);
    }

    private void exportEnded(String status) {
        exportProgress.unbind();
        exporting.set(false);
        export = null;
        exportStatus.set(status);
    }

    /** Stops a running export; nothing of it is left on disk. */
    public void cancelExport() {
        if (export != null) {
            export.cancel(false);
        }
    }

    /** Whether this person may purge old events: admins only (the service refuses everyone else anyway). */
    public boolean mayPurge() {
        return Operation.PURGE_EVENTS.allowedFor(actor.roles());
    }

    /** Counts, in the background, the events that a purge of everything older than {@code days} would delete. */
    public void countOlderThan(int days, Consumer<Long> then) {
        requireDays(days);
        Instant cutoff = clock.instant().minus(Duration.ofDays(days));
        Tasks.create(() -> service.countsByDay(actor, EventFilter.all().between(null, cutoff), ZoneOffset.UTC)
                        .stream().mapToLong(DayCount::count).sum())
                .onSuccess(then::accept)
                .onError(failure -> purgeStatus.set(messages.get("denials.purge.failed",
                        String.valueOf(failure.getMessage()))))
                .runOnce(executor);
    }

    /** Deletes, in the background, every event older than {@code days}, then shows the filter again. */
    public void purge(int days) {
        requireDays(days);
        Tasks.create(() -> service.purgeOlderThan(actor, Duration.ofDays(days)))
                .onSuccess(deleted -> {
                    purgeStatus.set(messages.get("denials.purge.done", deleted, days));
                    refresh();
                })
                .onError(failure -> purgeStatus.set(messages.get("denials.purge.failed",
                        String.valueOf(failure.getMessage()))))
                .runOnce(executor);
    }

    private static void requireDays(int days) {
        if (days < 1) {
            throw new IllegalArgumentException("a purge keeps at least one day of events, not " + days);
        }
    }

    private List<EventField> fieldsOf(GovernanceEvent event) {
        List<EventField> fields = new ArrayList<>();
        fields.add(new EventField(messages.get("denials.field.what"), explanation(event.type()), false));
        fields.add(new EventField(messages.get("denials.column.time"), timeOf(event), false));
        fields.add(new EventField(messages.get("denials.column.type"), event.type().code(), true));
        addIfPresent(fields, "denials.column.reason", event.reasonCode());
        addIfPresent(fields, "denials.column.rule", event.ruleId());
        addIfPresent(fields, "denials.column.tool", event.toolName());
        addIfPresent(fields, "denials.column.agent", event.agentConfiguration());
        addIfPresent(fields, "denials.column.actor", event.actor());
        addIfPresent(fields, "denials.field.model", event.model());
        addIfPresent(fields, "denials.column.run", event.runId());
        addIfPresent(fields, "denials.field.detail", event.detail());
        fields.add(new EventField(messages.get("denials.field.id"), event.id(), true));
        return fields;
    }

    private void addIfPresent(List<EventField> fields, String key, String value) {
        if (value != null && !value.isBlank()) {
            fields.add(new EventField(messages.get(key), value, true));
        }
    }

    /** What an event of a type means, in a sentence. */
    public String explanation(EventType eventType) {
        return messages.get("denials.explain." + eventType.name());
    }

    /** The event's time in the console's zone ("2026-11-29 14:03:07"). */
    public String timeOf(GovernanceEvent event) {
        return TIME.format(event.time().atZone(clock.getZone()));
    }

    /** The event's time in the console's zone to the minute without the year, for the table ("11-29 14:03"). */
    public String shortTimeOf(GovernanceEvent event) {
        return SHORT_TIME.format(event.time().atZone(clock.getZone()));
    }

    /** The label of an event type, for the type filter. */
    public String typeLabel(EventType eventType) {
        return eventType == null ? messages.get("denials.filter.anyType") : eventType.code();
    }

    /** The label of a time range. */
    public String rangeLabel(TimeRange shown) {
        return messages.get("denials.range." + shown.name());
    }

    public ObjectProperty<TimeRange> rangeProperty() {
        return range;
    }

    /** The first day of a picked range, inclusive. */
    public ObjectProperty<LocalDate> fromProperty() {
        return from;
    }

    /** The last day of a picked range, inclusive. */
    public ObjectProperty<LocalDate> toProperty() {
        return to;
    }

    /** The one event type shown; {@code null} for all. */
    public ObjectProperty<EventType> typeProperty() {
        return type;
    }

    public StringProperty ruleProperty() {
        return rule;
    }

    public StringProperty reasonProperty() {
        return reason;
    }

    public StringProperty toolProperty() {
        return tool;
    }

    public StringProperty agentProperty() {
        return agent;
    }

    /** The person who acted: the run's initiator for a refusal, the decider for a decision. */
    public StringProperty personProperty() {
        return person;
    }

    /** Free text, searched in the codes and names of every event. */
    public StringProperty searchProperty() {
        return search;
    }

    /** The filter the table and the counts show. */
    public ReadOnlyObjectProperty<EventFilter> filterProperty() {
        return filter.getReadOnlyProperty();
    }

    /** The events of the shown page, newest first. */
    public ObservableList<GovernanceEvent> rows() {
        return rows;
    }

    public ObjectProperty<GovernanceEvent> selectedProperty() {
        return selected;
    }

    /** The whole selected event, a line per field. */
    public ObservableList<EventField> details() {
        return details;
    }

    public ReadOnlyBooleanProperty hasNewerProperty() {
        return hasNewer.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty hasOlderProperty() {
        return hasOlder.getReadOnlyProperty();
    }

    /** True while a page is being read. */
    public ReadOnlyBooleanProperty loadingProperty() {
        return loading.getReadOnlyProperty();
    }

    /** "101–200 of 12,345". */
    public ReadOnlyStringProperty positionProperty() {
        return position.getReadOnlyProperty();
    }

    /** What went wrong with the filter or the last query; empty when nothing did. */
    public ReadOnlyStringProperty problemProperty() {
        return problem.getReadOnlyProperty();
    }

    /** How many events of the filter share each value of a dimension, most first. */
    public ObservableList<EventCount> counts(EventDimension dimension) {
        return counts.get(dimension);
    }

    /** How many events of the filter fell on each day, oldest first; days without events are left out. */
    public ObservableList<DayCount> byDay() {
        return byDay;
    }

    /** How many events match the filter; -1 while they are being counted. */
    public ReadOnlyLongProperty totalProperty() {
        return total.getReadOnlyProperty();
    }

    /** True while the counts of the filter are being read. */
    public ReadOnlyBooleanProperty chartsLoadingProperty() {
        return chartsLoading.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty exportingProperty() {
        return exporting.getReadOnlyProperty();
    }

    /** The share of the rows written, 0 to 1; -1 while the rows are being counted. */
    public ReadOnlyDoubleProperty exportProgressProperty() {
        return exportProgress.getReadOnlyProperty();
    }

    /** What the running or last export did. */
    public ReadOnlyStringProperty exportStatusProperty() {
        return exportStatus.getReadOnlyProperty();
    }

    /** What the last purge did. */
    public ReadOnlyStringProperty purgeStatusProperty() {
        return purgeStatus.getReadOnlyProperty();
    }
}
