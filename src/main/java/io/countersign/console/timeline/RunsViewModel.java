package io.countersign.console.timeline;

import io.countersign.console.common.ChangeFollower;
import io.countersign.console.common.ConnectionState;
import io.countersign.console.common.Messages;
import io.countersign.console.common.Tasks;
import io.countersign.engine.Actor;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.port.RunSummary;
import io.countersign.service.NotPermittedException;
import io.countersign.service.RunService;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.Executor;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.collections.transformation.FilteredList;

/**
 * The Runs list: the most recently updated runs, whatever their status, each opening its timeline. It follows
 * the service's changes only while it is shown.
 */
public final class RunsViewModel {
    /** How many runs the list shows. */
    public static final int LIMIT = 200;
    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("MMM d, HH:mm");

    private final RunService service;
    private final Actor actor;
    private final Executor executor;
    private final Messages messages;
    private final ConnectionState connection;
    private final ZoneId zone;
    private final ObservableList<RunSummary> runs = FXCollections.observableArrayList();
    private final FilteredList<RunSummary> visible = new FilteredList<>(runs);
    private final StringProperty search = new SimpleStringProperty("");
    /** The status the list is narrowed to; {@code null} for every status. */
    private final ObjectProperty<RunStatus> status = new SimpleObjectProperty<>();
    private final ReadOnlyStringWrapper problem = new ReadOnlyStringWrapper("");
    private final ChangeFollower changes = new ChangeFollower(this::subscribe, this::refresh);

    public RunsViewModel(RunService service, Actor actor, Executor executor, Messages messages,
                         ConnectionState connection, ZoneId zone) {
        this.service = Objects.requireNonNull(service, "service");
        this.actor = Objects.requireNonNull(actor, "actor");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.messages = Objects.requireNonNull(messages, "messages");
        this.connection = Objects.requireNonNull(connection, "connection");
        this.zone = Objects.requireNonNull(zone, "zone");
        search.addListener(o -> visible.setPredicate(this::matches));
        status.addListener(o -> visible.setPredicate(this::matches));
    }

    /** Loads the list and follows changes while {@code shown}; stops following when it is not. */
    public void setShown(boolean shown) {
        changes.follow(shown);
    }

    private AutoCloseable subscribe(Runnable changed) {
        return service.onChange(changed);
    }

    /** Asks the service for the recent runs in the background. */
    public void refresh() {
        Tasks.create(() -> service.recent(actor, LIMIT))
                .onSuccess(found -> {
                    connection.succeeded();
                    problem.set("");
                    show(found);
                })
                .onError(failure -> {
                    if (!(failure instanceof NotPermittedException)) {
                        connection.failed(failure);
                    }
                    problem.set(messages.get("runs.failed", String.valueOf(failure.getMessage())));
                })
                .runOnce(executor);
    }

    /** Shows a list of runs, newest first as the service gives them. */
    public void show(List<RunSummary> found) {
        if (!runs.equals(found)) {
            runs.setAll(found);
        }
    }

    /** "release-notes-bot · run 7f3a9c21". */
    public String titleOf(RunSummary run) {
        return messages.get("runs.item", run.agent(), messages.shortRunId(run.runId()));
    }

    /** "completed · by maria · Mar 2, 10:42", with the damage, the failure or an unknown outcome where there is one. */
    public String detailsOf(RunSummary run) {
        String when = run.updatedAt() == null ? "" : WHEN.format(run.updatedAt().atZone(zone));
        String details = messages.get("runs.details", run.status().code().replace('_', ' '), run.initiator(), when);
        if (run.damaged()) {
            details += " · " + messages.get("runs.damaged", run.damage());
        }
        if (run.outcomeUnknown()) {
            details += " · " + messages.get("runs.outcomeUnknown", run.runId());
        }
        if (run.failure() != null && !run.failure().isBlank()) {
            details += " · " + run.failure();
        }
        return details;
    }

    /** The runs, newest first. */
    public ObservableList<RunSummary> runs() {
        return runs;
    }

    /** The runs the search and the status filter leave, newest first. */
    public ObservableList<RunSummary> visibleRuns() {
        return visible;
    }

    /** Words that a run's agent, person, prompt, status or id must contain, like the inbox's search. */
    public StringProperty searchProperty() {
        return search;
    }

    public ObjectProperty<RunStatus> statusProperty() {
        return status;
    }

    private boolean matches(RunSummary run) {
        if (status.get() != null && run.status() != status.get()) {
            return false;
        }
        String words = search.get() == null ? "" : search.get().strip().toLowerCase(Locale.ROOT);
        if (words.isEmpty()) {
            return true;
        }
        String text = String.join("\n", run.agent(), Objects.toString(run.initiator(), ""),
                Objects.toString(run.prompt(), ""), run.status().code(), run.runId()).toLowerCase(Locale.ROOT);
        return Arrays.stream(words.split("\\s+")).allMatch(text::contains);
    }

    /** Why the list could not be loaded, empty when it could. */
    public ReadOnlyStringProperty problemProperty() {
        return problem.getReadOnlyProperty();
    }
}
