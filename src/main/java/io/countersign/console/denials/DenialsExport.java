package io.countersign.console.denials;

import io.countersign.console.common.Messages;
import io.countersign.engine.Actor;
import io.countersign.engine.event.EventFilter;
import io.countersign.service.EventService;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyDoubleWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

/** The denial browser's CSV export of the filter shown: one at a time, in the background, with its progress. */
public final class DenialsExport {
    private final EventService service;
    private final Actor actor;
    private final Executor executor;
    private final Messages messages;
    private final Supplier<EventFilter> shown;

    private final ReadOnlyBooleanWrapper running = new ReadOnlyBooleanWrapper();
    private final ReadOnlyDoubleWrapper progress = new ReadOnlyDoubleWrapper();
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper("");
    private CsvExport export;

    /** @param shown the filter the browser shows; {@code null} before its first query */
    DenialsExport(EventService service, Actor actor, Executor executor, Messages messages,
                  Supplier<EventFilter> shown) {
        this.service = Objects.requireNonNull(service, "service");
        this.actor = Objects.requireNonNull(actor, "actor");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.messages = Objects.requireNonNull(messages, "messages");
        this.shown = Objects.requireNonNull(shown, "shown");
    }

    /**
     * Starts writing the events of the current filter as CSV to a file, in the background. The file appears
     * only once the export is complete.
     */
    public void start(Path target) {
        Objects.requireNonNull(target, "target");
        EventFilter filter = shown.get();
        if (running.get() || filter == null) {
            return;
        }
        CsvExport started = new CsvExport(service, actor, filter, target);
        export = started;
        running.set(true);
        progress.bind(started.progressProperty());
        status.set(messages.get("denials.export.running", target.getFileName()));
        started.setOnSucceeded(event -> ended(messages.get("denials.export.done", started.getValue(),
                started.target())));
        started.setOnCancelled(event -> ended(messages.get("denials.export.cancelled")));
        started.setOnFailed(event -> ended(messages.get("denials.export.failed",
                String.valueOf(started.getException().getMessage()))));
        executor.execute(started);
    }

    private void ended(String result) {
        progress.unbind();
        running.set(false);
        export = null;
        status.set(result);
    }

    /** Stops a running export; nothing of it is left on disk. */
    public void cancel() {
        if (export != null) {
            export.cancel(false);
        }
    }

    public ReadOnlyBooleanProperty runningProperty() {
        return running.getReadOnlyProperty();
    }

    /** The share of the rows written, 0 to 1; -1 while the rows are being counted. */
    public ReadOnlyDoubleProperty progressProperty() {
        return progress.getReadOnlyProperty();
    }

    /** What the running or last export did. */
    public ReadOnlyStringProperty statusProperty() {
        return status.getReadOnlyProperty();
    }
}
