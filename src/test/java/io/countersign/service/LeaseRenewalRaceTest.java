package io.countersign.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.countersign.engine.Actor;
import io.countersign.engine.chat.AssistantTurn;
import io.countersign.engine.invocation.InvocationRules;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.port.ChatModel;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.IdGenerator;
import io.countersign.engine.port.RunQueue;
import io.countersign.engine.port.RunRepository;
import io.countersign.engine.port.ScriptedChatModel;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.tool.Tool;
import io.countersign.store.Store;
import io.countersign.store.StoreLocation;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker's lease renewal that races the last commit of the run's stretch fails because the stretch ended, not
 * because the run was taken away: the worker reports no lost run, also when the stretch paused and its card was
 * decided and the run queued again before the renewal asked. The renewal is held until the stretch has ended. A
 * run recovered while its stretch still runs is reported lost.
 */
class LeaseRenewalRaceTest {
    private static final RunWorker.Options OPTIONS = new RunWorker.Options(1, Duration.ofSeconds(1),
            Duration.ofMillis(100), false);

    @TempDir
    Path folder;

    @Test
    void aRenewalThatFailsAsTheStretchEndsReportsNoLostRun() throws Exception {
        CountDownLatch renewing = new CountDownLatch(1);
        // The stretch waits for the model until the renewal has begun, so the renewal finds the run in flight.
        try (ServiceRig rig = rig(new TallyTool(folder.resolve("ledger.txt")), TallyTool.scripts(), renewing)) {
            Store store = rig.store;
            HeldRenewals queue = new HeldRenewals(store.runs(), store.runs(), renewing);
            Actor olga = store.users().ensureUser("olga");
            String runId = execution(rig, queue).enqueue(olga, TallyTool.COUNTER, "Count once", true).runId();

            List<RunWorker.Progress> progress = workUntilTheRenewalAnswered(execution(rig, queue), olga, queue);

            assertThat(store.runs().find(runId).orElseThrow().status()).isEqualTo(RunStatus.COMPLETED);
            assertThat(progress).extracting(RunWorker.Progress::kind)
                    .containsExactly(RunWorker.Progress.Kind.FIRST_STRETCH);
        }
    }

    @Test
    void aRenewalThatFailsAfterTheStretchPausedAndItsCardWasDecidedReportsNoLostRun() throws Exception {
        CountDownLatch renewing = new CountDownLatch(1);
        try (ServiceRig rig = rig(new LedgerTool(folder.resolve("ledger.txt")), LedgerTool.scripts(), renewing)) {
            Store store = rig.store;
            Actor olga = store.users().ensureUser("olga");
            DefaultExecutionService[] execution = new DefaultExecutionService[1];
            // The card is decided, and its run queued again, after the stretch paused and before the renewal asks.
            HeldRenewals queue = new HeldRenewals(store.runs(), store.runs(), renewing, runId -> {
                String digest = rig.service.card(olga, runId).orElseThrow().digest();
                assertThat(execution[0].decideForWorker(olga, runId, digest,
                        List.of(Decision.CallVerdict.approve(0)))).isInstanceOf(DecisionResult.Done.class);
            });
            execution[0] = execution(rig, queue);
            String runId = execution[0].enqueue(olga, LedgerTool.ONE_PAUSE, "Record it", false).runId();

            List<RunWorker.Progress> progress = workUntilTheRenewalAnswered(execution[0], olga, queue);

            assertThat(store.runs().find(runId).orElseThrow().status()).isEqualTo(RunStatus.QUEUED);
            assertThat(progress).extracting(RunWorker.Progress::kind)
                    .containsExactly(RunWorker.Progress.Kind.FIRST_STRETCH);
        }
    }

    @Test
    void aRunRecoveredWhileItsStretchStillRunsIsReportedLost() throws Exception {
        CountDownLatch recovered = new CountDownLatch(1);
        // The stretch waits for the model until the run was taken from the worker.
        try (ServiceRig rig = rig(new TallyTool(folder.resolve("ledger.txt")), TallyTool.scripts(), recovered)) {
            Store store = rig.store;
            DefaultExecutionService execution = execution(rig, store.runs());
            Actor olga = store.users().ensureUser("olga");
            String runId = execution.enqueue(olga, TallyTool.COUNTER, "Count once", true).runId();
            List<RunWorker.Progress> progress = new CopyOnWriteArrayList<>();
            RunWorker worker = execution.worker(olga, OPTIONS, progress::add);
            Thread working = start(worker);
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> store.runs().find(runId).orElseThrow().status() == RunStatus.RUNNING);

            // As another worker would once the lease lapsed: the stretch executed nothing, so the run is queued.
            assertThat(store.runs().recoverAbandoned(Instant.now().plus(Duration.ofHours(1))))
                    .extracting(StoredRun::runId).containsExactly(runId);

            await().atMost(Duration.ofSeconds(30)).until(() -> progress.stream()
                    .anyMatch(step -> step.kind() == RunWorker.Progress.Kind.LEASE_LOST));
            recovered.countDown();
            worker.stop();
            working.join();
            assertThat(progress).filteredOn(step -> step.kind() == RunWorker.Progress.Kind.LEASE_LOST)
                    .extracting(RunWorker.Progress::runId).containsOnly(runId);
        }
    }

    /** A rig over a store in the test's folder whose model answers as scripted once {@code answering} is down. */
    private ServiceRig rig(Tool tool, Map<String, List<AssistantTurn>> scripts, CountDownLatch answering) {
        ChatModel scripted = ScriptedChatModel.byModel(scripts);
        ChatModel model = request -> {
            try {
                answering.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return scripted.complete(request);
        };
        return ServiceRig.open(new StoreLocation.SqliteFile(folder.resolve("countersign.db")), List.of(tool), scripts,
                InvocationRules.none(), model);
    }

    private static DefaultExecutionService execution(ServiceRig rig, RunQueue queue) {
        return new DefaultExecutionService(rig.service, rig.store.runs(), queue, rig.store.users(),
                rig.store.changes(), Clock.systemUTC(), IdGenerator.random());
    }

    private static Thread start(RunWorker worker) {
        Thread working = new Thread(worker::run, "lease-race-worker");
        working.start();
        return working;
    }

    /**
     * Runs a worker of olga's until the held renewal answered, then stops it and waits for it and for the renewal's
     * thread, which reports a lost lease right after the renewal answers, if it does; returns what it reported.
     */
    private static List<RunWorker.Progress> workUntilTheRenewalAnswered(DefaultExecutionService execution,
                                                                         Actor olga, HeldRenewals queue)
            throws InterruptedException {
        List<RunWorker.Progress> progress = new CopyOnWriteArrayList<>();
        RunWorker worker = execution.worker(olga, OPTIONS, progress::add);
        Thread working = start(worker);
        await().atMost(Duration.ofSeconds(30)).until(() -> queue.renewer.get() != null && queue.answered);
        worker.stop();
        working.join();
        queue.renewer.get().join(TimeUnit.SECONDS.toMillis(30));
        return progress;
    }

    /**
     * The store's queue, whose first renewal waits until the run's stretch has ended, then does what the test
     * asks, before it asks the store. The worker takes one run from it, and nothing more.
     */
    private static final class HeldRenewals extends ForwardingRunQueue {
        private final RunRepository runs;
        private final CountDownLatch renewing;
        private final Consumer<String> afterTheStretch;
        private final AtomicBoolean claimed = new AtomicBoolean();
        final AtomicReference<Thread> renewer = new AtomicReference<>();
        volatile boolean answered;

        HeldRenewals(RunQueue queue, RunRepository runs, CountDownLatch renewing) {
            this(queue, runs, renewing, runId -> { });
        }

        HeldRenewals(RunQueue queue, RunRepository runs, CountDownLatch renewing, Consumer<String> afterTheStretch) {
            super(queue);
            this.runs = runs;
            this.renewing = renewing;
            this.afterTheStretch = afterTheStretch;
        }

        /** The first run the worker takes, and nothing after it. */
        @Override
        public NextRun claimNext(String workerId, Instant leaseExpires, Instant at) {
            if (claimed.get()) {
                return NextRun.EMPTY;
            }
            NextRun run = super.claimNext(workerId, leaseExpires, at);
            claimed.set(run.taken().isPresent());
            return run;
        }

        @Override
        public boolean renewLease(String runId, String workerId, Instant leaseExpires) {
            if (!renewer.compareAndSet(null, Thread.currentThread())) {
                return super.renewLease(runId, workerId, leaseExpires);
            }
            renewing.countDown();
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> runs.find(runId).map(StoredRun::status).orElseThrow() != RunStatus.RUNNING);
            afterTheStretch.accept(runId);
            boolean renewed = super.renewLease(runId, workerId, leaseExpires);
            answered = true;
            return renewed;
        }
    }
}
