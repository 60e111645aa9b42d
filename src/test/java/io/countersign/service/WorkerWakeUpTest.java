package io.countersign.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.countersign.engine.Actor;
import io.countersign.engine.port.IdGenerator;
import io.countersign.engine.port.RunQueue;
import io.countersign.engine.port.StoreChanges;
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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker takes a run without sleeping until its next idle poll: one queued while an idle worker looks at the queue
 * and finds it empty is signalled before the worker waits again, and one that another transaction held when the
 * worker looked is looked for again shortly, with no signal.
 */
class WorkerWakeUpTest {
    /** Far longer than the test waits: a lost signal shows as a run never taken. */
    private static final Duration IDLE_POLL = Duration.ofMinutes(5);

    @TempDir
    Path folder;

    @Test
    void aRunQueuedWhileTheWorkerFoundTheQueueEmptyIsTakenWithoutWaitingForThePoll() throws Exception {
        try (ServiceRig rig = ServiceRig.open(new StoreLocation.SqliteFile(folder.resolve("countersign.db")),
                List.of(new TallyTool(folder.resolve("ledger.txt"))), TallyTool.scripts())) {
            Store store = rig.store;
            HandSignalledChanges changes = new HandSignalledChanges();
            ArrivingWhileLooking queue = new ArrivingWhileLooking(store.runs(), changes);
            DefaultExecutionService execution = new DefaultExecutionService(rig.service, store.runs(), queue,
                    store.users(), changes, Clock.systemUTC(), IdGenerator.random());
            Actor olga = store.users().ensureUser("olga");
            queue.arrival = () -> queue.queued.set(execution.enqueue(olga, TallyTool.COUNTER, "Count once", true)
                    .runId());
            List<RunWorker.Progress> progress = new CopyOnWriteArrayList<>();
            RunWorker worker = execution.worker(olga, new RunWorker.Options(1, Duration.ofMinutes(1), IDLE_POLL,
                    false), progress::add);
            Thread working = new Thread(worker::run, "wake-up-worker");
            working.start();
            try {
                await().atMost(Duration.ofSeconds(30)).until(() -> queue.queued.get() != null && store.runs()
                        .find(queue.queued.get()).map(StoredRun::status).orElseThrow() == RunStatus.COMPLETED);
            } finally {
                worker.stop();
                working.join();
            }
            assertThat(progress).extracting(RunWorker.Progress::kind)
                    .containsExactly(RunWorker.Progress.Kind.FIRST_STRETCH);
        }
    }

    @Test
    void aRunHeldByAnotherTransactionWhenTheWorkerLookedIsTakenWithoutASignal() throws Exception {
        try (ServiceRig rig = ServiceRig.open(new StoreLocation.SqliteFile(folder.resolve("countersign.db")),
                List.of(new TallyTool(folder.resolve("ledger.txt"))), TallyTool.scripts())) {
            Store store = rig.store;
            HeldAtFirst queue = new HeldAtFirst(store.runs(), 3);
            DefaultExecutionService execution = new DefaultExecutionService(rig.service, store.runs(), queue,
                    store.users(), new HandSignalledChanges(), Clock.systemUTC(), IdGenerator.random());
            Actor olga = store.users().ensureUser("olga");
            String runId = execution.enqueue(olga, TallyTool.COUNTER, "Count once", true).runId();
            RunWorker worker = execution.worker(olga, new RunWorker.Options(1, Duration.ofMinutes(1), IDLE_POLL,
                    false), progress -> { });
            Thread working = new Thread(worker::run, "held-run-worker");
            working.start();
            try {
                await().atMost(Duration.ofSeconds(30)).until(() -> store.runs().find(runId)
                        .map(StoredRun::status).orElseThrow() == RunStatus.COMPLETED);
            } finally {
                worker.stop();
                working.join();
            }
            assertThat(queue.held).hasValue(0);
        }
    }

    /** The change feed as a worker hears it (runs queued, decisions): only the signals the test gives by hand. */
    private static final class HandSignalledChanges implements StoreChanges {
        private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

        void signal() {
            listeners.forEach(Runnable::run);
        }

        @Override
        public Subscription onRunChange(Runnable listener) {
            return () -> {
            };
        }

        @Override
        public Subscription onQueueChange(Runnable listener) {
            listeners.add(listener);
            return () -> listeners.remove(listener);
        }

        @Override
        public Subscription onSettingsChange(Runnable listener) {
            return () -> {
            };
        }
    }

    /** The store's queue, whose first empty look has a run arrive, and its signal given, before it answers. */
    private static final class ArrivingWhileLooking extends ForwardingRunQueue {
        private final HandSignalledChanges changes;
        final AtomicReference<String> queued = new AtomicReference<>();
        volatile Runnable arrival;

        ArrivingWhileLooking(RunQueue queue, HandSignalledChanges changes) {
            super(queue);
            this.changes = changes;
        }

        @Override
        public NextRun claimNext(String workerId, Instant leaseExpires, Instant at) {
            NextRun next = super.claimNext(workerId, leaseExpires, at);
            if (next.taken().isEmpty() && queued.get() == null) {
                arrival.run();
                changes.signal();
            }
            return next;
        }
    }

    /** The store's queue, whose first looks answer that another transaction holds every queued run. */
    private static final class HeldAtFirst extends ForwardingRunQueue {
        final AtomicInteger held;

        HeldAtFirst(RunQueue queue, int looks) {
            super(queue);
            this.held = new AtomicInteger(looks);
        }

        @Override
        public NextRun claimNext(String workerId, Instant leaseExpires, Instant at) {
            return held.getAndUpdate(left -> Math.max(0, left - 1)) > 0 ? NextRun.HELD
                    : super.claimNext(workerId, leaseExpires, at);
        }
    }
}
