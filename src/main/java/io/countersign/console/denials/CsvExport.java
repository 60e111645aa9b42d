package io.countersign.console.denials;

import io.countersign.engine.Actor;
import io.countersign.engine.event.DayCount;
import io.countersign.engine.event.EventFilter;
import io.countersign.service.EventService;
import java.io.FilterWriter;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import javafx.concurrent.Task;

/**
 * Writes the events of a filter to a CSV file in the background, reporting progress by rows. The rows go to a
 * temporary file beside the target, which takes the target's name only once every row is written: a cancelled or
 * failed export leaves no file behind, and never a half one under the chosen name.
 */
final class CsvExport extends Task<Long> {
    /** How many rows pass between two progress reports. */
    private static final int REPORT_EVERY = 500;

    private final EventService service;
    private final Actor actor;
    private final EventFilter filter;
    private final Path target;

    CsvExport(EventService service, Actor actor, EventFilter filter, Path target) {
        this.service = Objects.requireNonNull(service, "service");
        this.actor = Objects.requireNonNull(actor, "actor");
        this.filter = Objects.requireNonNull(filter, "filter");
        this.target = Objects.requireNonNull(target, "target").toAbsolutePath();
    }

    Path target() {
        return target;
    }

    @Override
    protected Long call() throws IOException {
        long total = service.countsByDay(actor, filter, ZoneOffset.UTC).stream().mapToLong(DayCount::count).sum();
        updateProgress(0, Math.max(total, 1));
        Path part = Files.createTempFile(target.getParent(), target.getFileName().toString() + ".", ".part");
        try {
            long written;
            try (Writer out = new RowCounter(Files.newBufferedWriter(part, StandardCharsets.UTF_8), total)) {
                written = service.exportCsv(actor, filter, out);
            }
            if (isCancelled()) {
                throw new CancellationException("the export was cancelled");
            }
            Files.move(part, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            updateProgress(written, Math.max(written, 1));
            return written;
        } finally {
            Files.deleteIfExists(part);
        }
    }

    /**
     * Counts the rows as the service ends each one with its own line break, and stops the export at the next
     * row once the task is cancelled.
     */
    private final class RowCounter extends FilterWriter {
        private final long total;
        private long rows;

        RowCounter(Writer out, long total) {
            super(out);
            this.total = total;
        }

        @Override
        public void write(String text) throws IOException {
            if (isCancelled()) {
                throw new InterruptedIOException("the export was cancelled");
            }
            super.write(text, 0, text.length());
            // the header's line break is the first; rows follow
            if ("\r\n".equals(text) && rows++ % REPORT_EVERY == 0) {
                updateProgress(Math.max(rows - 1, 0), Math.max(total, 1));
            }
        }
    }
}
