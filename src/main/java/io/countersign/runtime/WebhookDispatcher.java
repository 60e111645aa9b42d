package io.countersign.runtime;

import io.countersign.engine.port.StoreChanges;
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
    private final StoreChanges.Subscription subscription;

    WebhookDispatcher(WebhookDeliveries deliveries, StoreChanges changes, Duration period) {
        this.deliveries = deliveries;
        thread.scheduleWithFixedDelay(this::deliverNow, 0, period.toMillis(), TimeUnit.MILLISECONDS);
        this.subscription = changes.onRunChange(this::soon);
    }

    /** One more round on the thread, unless one is queued already: a burst of changes costs one round. */
    private void soon() {
        if (roundQueued.compareAndSet(false, true)) {
            try {
                thread.execute(() -> {
                    roundQueued.set(false);
                    deliverNow();
                });
            } catch (java.util.concurrent.RejectedExecutionException closed) {
                roundQueued.set(false);
            }
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
        subscription.close();
        thread.shutdownNow();
        try {
            thread.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
