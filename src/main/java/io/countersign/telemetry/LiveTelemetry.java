package io.countersign.telemetry;

import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.port.PersonWait;
import io.countersign.engine.port.RunTelemetry;
import io.countersign.engine.port.StoreChanges;
import io.countersign.engine.port.StretchStart;
import io.countersign.engine.port.TelemetrySettings;
import io.countersign.engine.port.WebhookSender;
import io.countersign.engine.webhook.SendResult;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A process's telemetry as the admin's stored settings and the process's {@code OTEL_*} environment configure it
 * now: {@link #apply} builds the exporter again when the stored settings change, and the runs started from then on
 * report to it. A stretch already under way keeps reporting to the exporter it began with, which exports what has
 * ended and then stops.
 *
 * <p>It reads the stored settings and follows their changes from the first time something asks for it (a span, a
 * measure, {@link #on()}) or {@link #follow()} says so: a command that reports nothing reads no setting for it and
 * builds nothing.
 */
public final class LiveTelemetry implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(LiveTelemetry.class.getName());
    private final Map<String, String> environment;
    private final Supplier<TelemetrySettings> settings;
    private final StoreChanges changes;
    private final RunTelemetry runs = new Current();
    private volatile Telemetry current = Telemetry.OFF;
    private volatile boolean following;
    private StoreChanges.Subscription subscription;
    /** The stored settings {@link #current} was built from; null before the first {@link #apply}. */
    private TelemetrySettings applied;
    private Supplier<Map<String, Long>> waiting;
    private boolean closed;

    /**
     * @param environment the process's environment, whose {@code OTEL_*} variables win over the stored settings
     * @param settings    reads the stored settings
     * @param changes     tells of every change of the stored settings, here or in another process
     */
    public LiveTelemetry(Map<String, String> environment, Supplier<TelemetrySettings> settings,
                         StoreChanges changes) {
        this.environment = Map.copyOf(environment);
        this.settings = Objects.requireNonNull(settings, "settings");
        this.changes = Objects.requireNonNull(changes, "changes");
    }

    /**
     * Exports as the stored settings say, now and after every change of them, unless it does already: for a
     * process that reports from its start, such as the waiting cards of a console or a worker.
     */
    public void follow() {
        if (!following) {
            startFollowing();
        }
    }

    private synchronized void startFollowing() {
        if (following || closed) {
            return;
        }
        // subscribed before the first read, so that a change in between is not missed
        subscription = changes.onSettingsChange(this::applyStored);
        applyStored();
        // set last: a report on another thread meanwhile waits here for the first read rather than going unreported
        following = true;
    }

    private void applyStored() {
        try {
            apply(settings.get());
        } catch (RuntimeException e) {
            // the store could not be read now: the export in force stays, and the next change tries again
            LOG.log(System.Logger.Level.WARNING, "telemetry: the settings could not be read ({0})", e.getMessage());
        }
    }

    /** The telemetry in force now, following the stored settings from the first call on. */
    private Telemetry current() {
        follow();
        return current;
    }

    /** Exports as these stored settings say from now on, unless they are the ones in force already. */
    public synchronized void apply(TelemetrySettings stored) {
        Objects.requireNonNull(stored, "stored");
        if (closed || stored.equals(applied)) {
            return;
        }
        applied = stored;
        Telemetry next = Telemetry.configured(environment, stored);
        if (waiting != null) {
            next.watchWaiting(waiting);
        }
        Telemetry previous = current;
        current = next;
        previous.closeInBackground();
    }

    /** True when spans and metrics are exported now. */
    public boolean on() {
        return current().on();
    }

    /** What the tool loop and the decisions report to: the telemetry in force when each call is made. */
    public RunTelemetry runs() {
        return runs;
    }

    /** Counts the cards waiting now by agent, as {@code waiting} tells each time the metrics are collected. */
    public synchronized void watchWaiting(Supplier<Map<String, Long>> waiting) {
        this.waiting = Objects.requireNonNull(waiting, "waiting");
        current.watchWaiting(waiting);
    }

    /** The sender, with each failed delivery counted. */
    public WebhookSender countingFailures(WebhookSender sender) {
        return delivery -> {
            SendResult result = sender.send(delivery);
            if (!(result instanceof SendResult.Delivered)) {
                current().webhookFailed();
            }
            return result;
        };
    }

    /** Exports what is left, waiting a second at most, and stops the exporting threads. */
    @Override
    public synchronized void close() {
        closed = true;
        if (subscription != null) {
            subscription.close();
        }
        Telemetry last = current;
        current = Telemetry.OFF;
        last.close();
    }

    private final class Current implements RunTelemetry {
        @Override
        public Stretch stretch(StretchStart start) {
            return current().runs().stretch(start);
        }

        @Override
        public void recorded(GovernanceEvent event) {
            current().runs().recorded(event);
        }

        @Override
        public void waited(PersonWait wait) {
            current().runs().waited(wait);
        }

        @Override
        public boolean measuresWaits() {
            return current().runs().measuresWaits();
        }
    }
}
