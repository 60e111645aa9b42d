package io.countersign.runtime;

import io.countersign.service.DeadlineApplied;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Applies overdue deadlines on a thread of its own every period, until closed. A sweep that fails
 * (the store unreachable for a while) is logged and the next one tries again; the fallback of each run happens
 * exactly once whichever process's sweep gets there first.
 */
final class DeadlineSweeper implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(DeadlineSweeper.class.getName());
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(work -> {
        Thread sweeping = new Thread(work, "countersign-deadlines");
        sweeping.setDaemon(true);
        return sweeping;
    });

    private final Supplier<List<DeadlineApplied>> sweep;

    DeadlineSweeper(Supplier<List<DeadlineApplied>> sweep, Duration period) {
        this.sweep = sweep;
        thread.scheduleWithFixedDelay(this::sweepNow, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** One sweep on the calling thread, its failures logged. */
    void sweepNow() {
        try {
            for (DeadlineApplied applied : sweep.get()) {
                if (applied.outcome() == DeadlineApplied.Outcome.NOT_APPLIED) {
                    LOG.warning(() -> "the deadline of run " + applied.runId() + " was not applied: "
                            + applied.detail());
                }
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "the deadline sweep failed; the next one tries again", e);
        }
    }

    /** Stops sweeping; waits briefly for a sweep under way, whose runs are otherwise left to the next process. */
    @Override
    public void close() {
        thread.shutdownNow();
        try {
            thread.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
