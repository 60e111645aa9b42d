package io.countersign.console.denials;

import io.countersign.console.common.ConnectionState;
import io.countersign.console.common.Messages;
import io.countersign.console.common.Tasks;
import io.countersign.engine.Actor;
import io.countersign.engine.event.DayCount;
import io.countersign.engine.event.EventCount;
import io.countersign.engine.event.EventFilter;
import io.countersign.engine.event.EventPage;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.event.PageRequest;
import io.countersign.service.EventService.EventDimension;
import io.countersign.service.EventService;
import io.countersign.service.NotPermittedException;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyLongProperty;
import javafx.beans.property.ReadOnlyLongWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The denial browser: the governance events of a filter, newest first, a page at a time by keyset, with their
 * counts by reason, rule, tool and day, a CSV export of the filter and, for admins, the retention purge (each
 * of these its own type, reached from here).
 * Every change of the filter asks again; an answer for a filter that has since changed is dropped, so a slow
 * query never overwrites a newer one.
 */
public final class DenialsViewModel {
    /** Events in one page of the table. */
    public static final int PAGE_SIZE = 100;

    private final EventService service;
    private final Actor actor;
    private final Executor executor;
    private final Messages messages;
    private final ConnectionState connection;
    private final Clock clock;
    private final Consumer<String> openRun;

    private final ReadOnlyObjectWrapper<EventFilter> filter = new ReadOnlyObjectWrapper<>();
    private final DenialFilterForm filters;
    private final EventTexts texts;
    private final DenialsExport export;
    private final EventPurge purge;
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

    /** Bumped by every page request and every filter; read on the workers to skip work nobody waits for. */
    private final AtomicInteger pageGeneration = new AtomicInteger();
    private final AtomicInteger chartGeneration = new AtomicInteger();
    private long firstRow;
    private EventPage page;

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
        this.filters = new DenialFilterForm(messages, clock, this::apply);
        this.texts = new EventTexts(messages, clock.getZone());
        this.export = new DenialsExport(service, actor, executor, messages, filter::get);
        this.purge = new EventPurge(service, actor, executor, messages, clock, this::refresh);
        selected.addListener((o, was, now) -> showDetails(now));
    }

    /** The event's fields at once, then the reasons the operator gave for the calls a decision denied. */
    private void showDetails(GovernanceEvent event) {
        details.setAll(event == null ? List.of() : texts.fieldsOf(event));
        if (event == null || event.type() != EventType.APPROVAL_DECIDED) {
            return;
        }
        Tasks.create(() -> service.denials(actor, event))
                .onSuccess(denied -> {
                    if (event.equals(selected.get())) {
                        details.addAll(details.size() - 1, texts.denyReasons(denied));
                    }
                })
                .onError(failure -> {
                    if (event.equals(selected.get())) {
                        details.add(details.size() - 1, new EventField(messages.get("denials.field.denyReason"),
                                messages.get("denials.field.denyReasonFailed", failure.getMessage()), false));
                    }
                })
                .runOnce(executor);
    }

    /** Asks again for the current filter, with preset ranges measured back from now. */
    public void refresh() {
        apply();
    }

    private void apply() {
        EventFilter built;
        try {
            built = filters.build();
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
        // the newest event is shown whole rather than an empty pane beside columns too narrow to read
        selected.set(kept != null && rows.contains(kept) ? kept : rows.isEmpty() ? null : rows.get(0));
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

    /** The filters as the person sets them; every change asks again. */
    public DenialFilterForm filters() {
        return filters;
    }

    /** How the browser words an event. */
    public EventTexts texts() {
        return texts;
    }

    /** The CSV export of the filter shown. */
    public DenialsExport export() {
        return export;
    }

    /** The retention purge, for admins. */
    public EventPurge purge() {
        return purge;
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
}
