package io.countersign.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.countersign.engine.Actor;
import io.countersign.engine.invocation.InvocationRules;
import io.countersign.engine.port.ChatModel;
import io.countersign.engine.port.IdGenerator;
import io.countersign.engine.port.RunQueue;
import io.countersign.engine.port.RunRepository;
import io.countersign.engine.port.ScriptedChatModel;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.state.RunStatus;
import io.countersign.store.Store;
import io.countersign.store.StoreLocation;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker's lease renewal that races the last commit of the run's stretch fails because the stretch ended, not
 * because the run was taken away: the worker reports no lost run. The renewal is held until the stretch has ended.
 */
class LeaseRenewalRaceTest {
    @TempDir
    Path folder;

    @Test
    void aRenewalThatFailsAsTheStretchEndsReportsNoLostRun() throws Exception {
        CountDownLatch renewing = new CountDownLatch(1);
        ChatModel scripted = ScriptedChatModel.byModel(TallyTool.scripts());
        // The stretch waits for the model until the renewal has begun, so the renewal finds the run in flight.
        ChatModel model = request -> {
            try {
                renewing.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return scripted.complete(request);
        };
        try (ServiceRig rig = ServiceRig.open(new StoreLocation.SqliteFile(folder.resolve("countersign.db")),
                List.of(new TallyTool(folder.resolve("ledger.txt"))), TallyTool.scripts(), InvocationRules.none(),
                model)) {
            Store store = rig.store;
            HeldRenewals queue = new HeldRenewals(store.runs(), store.runs(), renewing);
            DefaultExecutionService execution = new DefaultExecutionService(rig.service, store.runs(), queue,
                    store.users(), store.changes(), Clock.systemUTC(), IdGenerator.random());
            Actor olga = store.users().ensureUser("olga");
            String runId = execution.enqueue(olga, TallyTool.COUNTER, "Count once", true).runId();
            List<RunWorker.Progress> progress = new CopyOnWriteArrayList<>();
            RunWorker worker = execution.worker(olga, new RunWorker.Options(1, Duration.ofSeconds(1),
                    Duration.ofMillis(100), false), progress::add);
            Thread working = new Thread(worker::run, "lease-race-worker");
            working.start();

            await().atMost(Duration.ofSeconds(30)).until(() -> queue.renewer.get() != null && queue.answered);
            worker.stop();
            working.join();
            // The renewal's thread reports a lost lease right after the renewal answers, if it does.
            queue.renewer.get().join(TimeUnit.SECONDS.toMillis(30));

            assertThat(store.runs().find(runId).orElseThrow().status()).isEqualTo(RunStatus.COMPLETED);
            assertThat(progress).extracting(RunWorker.Progress::kind)
                    .containsExactly(RunWorker.Progress.Kind.FIRST_STRETCH);
        }
    }

    /** The store's queue, whose first renewal waits until the run's stretch has ended before it asks the store. */
    private static final class HeldRenewals extends ForwardingRunQueue {
        private final RunRepository runs;
        private final CountDownLatch renewing;
        final AtomicReference<Thread> renewer = new AtomicReference<>();
        volatile boolean answered;

        HeldRenewals(RunQueue queue, RunRepository runs, CountDownLatch renewing) {
            super(queue);
            this.runs = runs;
            this.renewing = renewing;
        }

        @Override
        public boolean renewLease(String runId, String workerId, Instant leaseExpires) {
            if (!renewer.compareAndSet(null, Thread.currentThread())) {
                return super.renewLease(runId, workerId, leaseExpires);
            }
            renewing.countDown();
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> runs.find(runId).map(StoredRun::status).orElseThrow() != RunStatus.RUNNING);
            boolean renewed = super.renewLease(runId, workerId, leaseExpires);
            answered = true;
            return renewed;
        }
    }
}
