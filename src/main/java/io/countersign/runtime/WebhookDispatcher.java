package io.countersign.runtime;

import io.countersign.engine.port.StoreChanges;
import io.countersign.engine.port.WebhookRegistry;
import io.countersign.service.WebhookDeliveries;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Delivers the outbox's due webhook events on a thread of its own: right after a run or a decision changed (here or
 * in another process, when an event may have been queued) and every period for the retries, until closed. A round
 * that fails (the store unreachable for a while) is logged and the next one tries again.
 *
 * <p>While no webhook is registered, a change costs nothing: every process that delivers (each console and worker)
 * would otherwise look at the outbox at every change of every run. Whether one is registered is read again at each
 * period and at each change of the settings, where adding a webhook is announced; an event queued before this
 * process heard of its webhook goes out with the next period's round.
 */
final class WebhookDispatcher implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(WebhookDispatcher.class.getName());
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(work -> {
        Thread delivering = new Thread(work, "countersign-webhooks");
        delivering.setDaemon(true);
        return delivering;
    });
    private final AtomicBoolean roundQueued = new AtomicBoolean();
    private final WebhookDeliveries deliveries;
    private final WebhookRegistry hooks;
    private final StoreChanges.Subscription runChanges;
    private final StoreChanges.Subscription settingsChanges;
    /** As last read; true until then, so that no change is passed over before the first read. */
    private volatile boolean hooksRegistered = true;

    WebhookDispatcher(WebhookDeliveries deliveries, WebhookRegistry hooks, StoreChanges changes, Duration period) {
        this.deliveries = deliveries;
        this.hooks = hooks;
        thread.scheduleWithFixedDelay(this::lookAgainAndDeliver, 0, period.toMillis(), TimeUnit.MILLISECONDS);
        this.runChanges = changes.onRunChange(() -> {
            if (hooksRegistered) {
                soon(this::deliverNow);
            }
        });
        this.settingsChanges = changes.onSettingsChange(() -> soon(this::lookAgainAndDeliver));
    }

    /** One more round on the thread, unless one is queued already: a burst of changes costs one round. */
    private void soon(Runnable round) {
        if (roundQueued.compareAndSet(false, true)) {
            try {
                thread.execute(() -> {
                    roundQueued.set(false);
                    round.run();
                });
            } catch (java.util.concurrent.RejectedExecutionException closed) {
                roundQueued.set(false);
            }
        }
    }

    private void lookAgainAndDeliver() {
        try {
            hooksRegistered = hooks.anyRegistered();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "reading whether webhooks are registered failed; the next round tries again", e);
            return;
        }
        if (hooksRegistered) {
            deliverNow();
        }
    }

    private void deliverNow() {
        try {
            deliveries.deliverDue();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "delivering webhook events failed; the next round tries again", e);
        }
    }

    /** Stops delivering; a send under way is given a moment, and what it leaves is the next process's to send. */
    @Override
    public void close() {
        runChanges.close();
        settingsChanges.close();
        thread.shutdownNow();
        try {
            thread.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
