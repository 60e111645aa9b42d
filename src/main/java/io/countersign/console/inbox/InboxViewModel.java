package io.countersign.console.inbox;

import io.countersign.console.common.ChangeFollower;
import io.countersign.console.common.ConnectionState;
import io.countersign.console.common.LiveClock;
import io.countersign.console.common.Messages;
import io.countersign.console.common.Tasks;
import io.countersign.engine.Actor;
import io.countersign.service.InboxOrder;
import io.countersign.service.RunService;
import io.countersign.engine.port.WaitingRun;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.stream.Stream;
import javafx.beans.Observable;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.binding.StringBinding;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.collections.transformation.FilteredList;

/**
 * The inbox: every run that waits for a person, oldest first, filtered by a search and by agent, tool and kind.
 * Refreshes merge into the list in place, so the selection and the scroll position survive them.
 */
public final class InboxViewModel {
    private final RunService service;
    private final Actor actor;
    private final Executor executor;
    private final LiveClock clock;
    private final Messages messages;
    private final ConnectionState connection;

    private final ObservableList<WaitingRun> runs = FXCollections.observableArrayList();
    private final FilteredList<WaitingRun> visible = new FilteredList<>(runs);
    private final Map<String, String> searchTexts = new HashMap<>();
    /** Runs whose decision the window holds (or sent), as they waited then: out of the list until they pause again. */
    private final Map<String, WaitingRun> held = new HashMap<>();
    private final ObservableList<String> agents = FXCollections.observableArrayList();
    private final ObservableList<String> tools = FXCollections.observableArrayList();
    private final StringProperty search = new SimpleStringProperty("");
    private final ObjectProperty<String> agent = new SimpleObjectProperty<>();
    private final ObjectProperty<String> tool = new SimpleObjectProperty<>();
    private final ObjectProperty<InboxKind> kind = new SimpleObjectProperty<>(InboxKind.ANY);
    private final ObjectProperty<InboxOrder> order = new SimpleObjectProperty<>(InboxOrder.WAITING);
    private final ReadOnlyObjectWrapper<WaitingRun> selected = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyBooleanWrapper loaded = new ReadOnlyBooleanWrapper();
    private final BooleanBinding filtered;
    private final StringBinding header;
    private Consumer<List<WaitingRun>> arrivalListener = arrived -> {
    };
    private boolean merging;
    private String vanishedRunId;
    private int vanishedIndex = -1;
    private boolean refreshing;
    private boolean refreshAgain;
    private boolean lastLoadFailed;
    private final ChangeFollower changes = new ChangeFollower(this::subscribe, this::refresh);

    public InboxViewModel(RunService service, Actor actor, Executor executor, LiveClock clock, Messages messages,
                          ConnectionState connection) {
        this.service = Objects.requireNonNull(service, "service");
        this.actor = Objects.requireNonNull(actor, "actor");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.messages = Objects.requireNonNull(messages, "messages");
        this.connection = Objects.requireNonNull(connection, "connection");
        // applyFilter reads every filter, so each one's next change is reported again
        Stream.<Observable>of(search, agent, tool, kind).forEach(filter -> filter.addListener(o -> applyFilter()));
        order.addListener((o, was, now) -> refresh());
        filtered = Bindings.createBooleanBinding(
                () -> !search.get().isBlank() || agent.get() != null || tool.get() != null
                        || kind.get() != InboxKind.ANY, search, agent, tool, kind);
        header = Bindings.createStringBinding(() -> filtered.get() && visible.size() != runs.size()
                        ? messages.get("inbox.header.filtered", visible.size(), runs.size())
                        : messages.get("inbox.header", runs.size()),
                filtered, visible, runs);
    }

    /** Loads the inbox and keeps it current: every change the service reports refreshes it. */
    public void start() {
        changes.follow(true);
    }

    /** Stops listening for changes. */
    public void stop() {
        changes.follow(false);
    }

    private AutoCloseable subscribe(Runnable changed) {
        return service.onChange(changed);
    }

    /** Asks the service for the inbox in the background; refreshes asked for meanwhile fold into one more. */
    public void refresh() {
        if (refreshing) {
            refreshAgain = true;
            return;
        }
        refreshing = true;
        // the answer is sorted and indexed on the executor: the JavaFX thread only takes it in
        var sort = order.get().comparator(actor);
        Tasks.create(() -> InboxAnswer.of(service.inbox(actor), sort))
                .onSuccess(result -> {
                    connection.succeeded();
                    lastLoadFailed = false;
                    replace(result);
                    refreshDone();
                })
                .onError(failure -> {
                    connection.failed(failure);
                    lastLoadFailed = true;
                    refreshDone();
                })
                .runOnce(executor);
    }

    /**
     * Whether the inbox's last load failed, so that it may miss runs: another call getting through meanwhile
     * (another screen's) brings the connection back, but not what the inbox missed.
     */
    public boolean lastLoadFailed() {
        return lastLoadFailed;
    }

    private void refreshDone() {
        refreshing = false;
        if (refreshAgain) {
            refreshAgain = false;
            refresh();
        }
    }

    /**
     * Replaces the inbox with a fresh answer from the service, in place: unchanged rows stay, gone rows leave,
     * new rows take their place by age. Runs that newly wait are announced once the inbox was loaded before.
     */
    public void replace(List<WaitingRun> fresh) {
        replace(InboxAnswer.of(fresh, order.get().comparator(actor)));
    }

    private void replace(InboxAnswer fresh) {
        InboxAnswer answer = fresh.without(held);
        List<WaitingRun> sorted = answer.sorted();
        Map<String, WaitingRun> byId = answer.byId();
        Set<String> known = new HashSet<>();
        runs.forEach(run -> known.add(run.runId() + "@" + run.waitingSince()));
        // the filter reads these as rows arrive, so they go in first
        searchTexts.putAll(answer.searchTexts());

        WaitingRun current = selected.get();
        if (current != null && !byId.containsKey(current.runId())) {
            // a decision here may report after a refresh took the run away; it still knows where it was
            vanishedRunId = current.runId();
            vanishedIndex = visible.indexOf(current);
        }
        merging = true;
        try {
            if (runs.isEmpty()) {
                // the first load: one change instead of one per row
                runs.setAll(sorted);
            } else {
                answer.mergeInto(runs);
            }
        } finally {
            merging = false;
        }
        searchTexts.keySet().retainAll(byId.keySet());
        answer.choices().showIn(agents, tools);

        if (current != null) {
            selected.set(byId.get(current.runId()));
        }
        if (loaded.get()) {
            List<WaitingRun> arrived = sorted.stream()
                    .filter(run -> !known.contains(run.runId() + "@" + run.waitingSince())).toList();
            if (!arrived.isEmpty()) {
                arrivalListener.accept(arrived);
            }
        }
        loaded.set(true);
    }

    /** Takes a run out of the list at once (it was just decided here) and selects the one after it. */
    public void removeAndAdvance(String runId) {
        int index = runId.equals(vanishedRunId) ? vanishedIndex : visible.indexOf(find(runId));
        vanishedRunId = null;
        merging = true;
        try {
            runs.removeIf(run -> run.runId().equals(runId));
        } finally {
            merging = false;
        }
        searchTexts.remove(runId);
        InboxChoices.of(runs).showIn(agents, tools);
        if (index < 0) {
            return;
        }
        selected.set(visible.isEmpty() ? null : visible.get(Math.min(index, visible.size() - 1)));
    }

    /** Keeps a run out of the list while its decision is held or on its way; the next row opens. */
    public void hold(String runId) {
        WaitingRun run = find(runId);
        if (run != null) {
            held.put(runId, run);
            removeAndAdvance(runId);
        }
    }

    /** Lets a held run back into the list as it waited, and refreshes to learn whether it still does. */
    public void release(String runId) {
        WaitingRun run = held.remove(runId);
        if (run != null && find(runId) == null) {
            List<WaitingRun> back = new ArrayList<>(runs);
            back.add(run);
            replace(InboxAnswer.of(back, order.get().comparator(actor)));
        }
        refresh();
    }

    /** Selects a run that waits, clearing the search and filters if they hide it. */
    public void show(String runId) {
        WaitingRun run = find(runId);
        if (run != null) {
            if (!visible.contains(run)) {
                clearFilters();
            }
            selected.set(run);
        }
    }

    /** Selects the next (younger) run in the visible list; from nothing, the first. */
    public void selectNext() {
        move(1);
    }

    /** Selects the previous (older) run in the visible list; from nothing, the first. */
    public void selectPrevious() {
        move(-1);
    }

    private void move(int step) {
        if (visible.isEmpty()) {
            return;
        }
        int index = selected.get() == null ? -1 : visible.indexOf(selected.get());
        int next = index < 0 ? 0 : Math.max(0, Math.min(visible.size() - 1, index + step));
        selected.set(visible.get(next));
    }

    /**
     * Selects a run (as the list does on a click); {@code null} clears the selection. A selection the list
     * makes by itself while rows come and go is ignored: the card a person looks at never changes under them.
     */
    public void select(WaitingRun run) {
        if (!merging) {
            selected.set(run);
        }
    }

    /** Clears the search and every filter. */
    public void clearFilters() {
        search.set("");
        agent.set(null);
        tool.set(null);
        kind.set(InboxKind.ANY);
    }

    /** How long a run has waited, as of the live clock: "4 min". */
    public String waitingFor(WaitingRun run) {
        return messages.elapsed(Duration.between(run.waitingSince(), clock.now()));
    }

    /** Announces runs that newly wait (not the ones found by the first load). */
    public void setArrivalListener(Consumer<List<WaitingRun>> listener) {
        this.arrivalListener = Objects.requireNonNull(listener, "listener");
    }

    private WaitingRun find(String runId) {
        return runs.stream().filter(run -> run.runId().equals(runId)).findFirst().orElse(null);
    }

    private void applyFilter() {
        Predicate<WaitingRun> predicate = new InboxFilter(search.get(), agent.get(), tool.get(), kind.get())
                .over(searchTexts);
        merging = true;
        try {
            visible.setPredicate(predicate);
        } finally {
            merging = false;
        }
        // the card shown is always a row the person sees: a filter that hides it moves on to the first one left
        WaitingRun shown = selected.get();
        if (shown != null && !visible.contains(shown)) {
            selected.set(visible.isEmpty() ? null : visible.get(0));
        }
    }

    /** Whether a run waits but the search or a filter hides it. */
    public boolean hidden(String runId) {
        WaitingRun run = find(runId);
        return run != null && !visible.contains(run);
    }

    /** The runs the list shows, oldest first. */
    public ObservableList<WaitingRun> visibleRuns() {
        return visible;
    }

    /** Every waiting run, whatever the filter. */
    public ObservableList<WaitingRun> allRuns() {
        return FXCollections.unmodifiableObservableList(runs);
    }

    /** The agents of the waiting runs, for the agent filter. */
    public ObservableList<String> agents() {
        return agents;
    }

    /** The first tools of the waiting runs, for the tool filter. */
    public ObservableList<String> tools() {
        return tools;
    }

    public StringProperty searchProperty() {
        return search;
    }

    /** The agent filter; {@code null} for any agent. */
    public ObjectProperty<String> agentProperty() {
        return agent;
    }

    /** The tool filter; {@code null} for any tool. */
    public ObjectProperty<String> toolProperty() {
        return tool;
    }

    public ObjectProperty<InboxKind> kindProperty() {
        return kind;
    }

    public ObjectProperty<InboxOrder> orderProperty() {
        return order;
    }

    public ReadOnlyObjectProperty<WaitingRun> selectedProperty() {
        return selected.getReadOnlyProperty();
    }

    /** Whether the first answer from the service has arrived. */
    public ReadOnlyBooleanProperty loadedProperty() {
        return loaded.getReadOnlyProperty();
    }

    /** Whether a search or a filter narrows the list. */
    public BooleanBinding filteredProperty() {
        return filtered;
    }

    /** "Inbox · 3 waiting", or "Inbox · 1 of 3 shown" under a filter. */
    public StringBinding headerProperty() {
        return header;
    }

    /** The live clock the waiting times are measured against. */
    public LiveClock clock() {
        return clock;
    }
}
