package io.countersign.console.timeline;

import io.countersign.console.common.ConnectionState;
import io.countersign.console.common.Messages;
import io.countersign.console.common.Tasks;
import io.countersign.engine.Actor;
import io.countersign.service.NotPermittedException;
import io.countersign.service.RunService;
import io.countersign.service.RunTimeline;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Objects;
import java.util.concurrent.Executor;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.StringBinding;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/** One run's timeline: transcript, tool calls with outcomes, decisions and events, in order. */
public final class TimelineViewModel {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");

    private final RunService service;
    private final Actor actor;
    private final Executor executor;
    private final Messages messages;
    private final ConnectionState connection;
    private final ZoneId zone;

    private final ReadOnlyObjectWrapper<RunTimeline> timeline = new ReadOnlyObjectWrapper<>();
    private final ObservableList<RunTimeline.Entry> entries = FXCollections.observableArrayList();
    private final ReadOnlyBooleanWrapper loading = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper problem = new ReadOnlyStringWrapper("");
    private final StringBinding header;
    private final StringBinding summary;
    private int generation;

    public TimelineViewModel(RunService service, Actor actor, Executor executor, Messages messages,
                             ConnectionState connection, ZoneId zone) {
        this.service = Objects.requireNonNull(service, "service");
        this.actor = Objects.requireNonNull(actor, "actor");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.messages = Objects.requireNonNull(messages, "messages");
        this.connection = Objects.requireNonNull(connection, "connection");
        this.zone = Objects.requireNonNull(zone, "zone");
        header = Bindings.createStringBinding(() -> timeline.get() == null ? ""
                : messages.get("timeline.header", timeline.get().agent(), messages.shortRunId(timeline.get().runId()),
                timeline.get().initiator()), timeline);
        summary = Bindings.createStringBinding(() -> {
            RunTimeline shown = timeline.get();
            if (shown == null) {
                return "";
            }
            String status = shown.status().code().replace('_', ' ');
            String started = shown.startedAt() == null ? "?" : time(shown.startedAt());
            return shown.failure() == null || shown.failure().isBlank()
                    ? messages.get("timeline.summary", status, started, shown.entries().size())
                    : messages.get("timeline.summaryFailed", status, started, shown.entries().size(),
                    shown.failure());
        }, timeline);
    }

    /** Loads the timeline of a run in the background. */
    public void open(String runId) {
        Objects.requireNonNull(runId, "runId");
        int asked = ++generation;
        loading.set(true);
        problem.set("");
        Tasks.create(() -> service.timeline(actor, runId))
                .onSuccess(result -> {
                    if (asked == generation) {
                        connection.succeeded();
                        loading.set(false);
                        show(result);
                    }
                })
                .onError(failure -> {
                    if (asked == generation) {
                        loading.set(false);
                        if (!(failure instanceof NotPermittedException)) {
                            connection.failed(failure);
                        }
                        problem.set(messages.get("timeline.failed", runId, String.valueOf(failure.getMessage())));
                    }
                })
                .runOnce(executor);
    }

    /** Shows a timeline. */
    public void show(RunTimeline shown) {
        entries.setAll(shown.entries());
        timeline.set(shown);
    }

    /** The clock time of an entry ("10:42:07"), empty for transcript entries, which carry none. */
    public String timeOf(RunTimeline.Entry entry) {
        return entry.time() == null ? "" : time(entry.time());
    }

    /** The label of an entry's kind: "Model", "Tool call", "Decision". */
    public String kindOf(RunTimeline.Entry entry) {
        return messages.get("timeline.kind." + entry.kind().name());
    }

    private String time(Instant instant) {
        return TIME.format(instant.atZone(zone));
    }

    public ReadOnlyObjectProperty<RunTimeline> timelineProperty() {
        return timeline.getReadOnlyProperty();
    }

    /** The entries, in the order they happened. */
    public ObservableList<RunTimeline.Entry> entries() {
        return entries;
    }

    public ReadOnlyBooleanProperty loadingProperty() {
        return loading.getReadOnlyProperty();
    }

    /** Why the timeline could not be loaded, empty when it could. */
    public ReadOnlyStringProperty problemProperty() {
        return problem.getReadOnlyProperty();
    }

    /** "release-notes-bot · run 7f3a… · by maria". */
    public StringBinding headerProperty() {
        return header;
    }

    /** "completed · started 10:40:12 · 14 entries". */
    public StringBinding summaryProperty() {
        return summary;
    }
}
