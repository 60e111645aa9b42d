package io.countersign.service;

import io.countersign.engine.Actor;
import io.countersign.engine.port.ActorDirectory;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.RunQueue;
import io.countersign.engine.port.StoreChanges;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.port.StoredRuns;
import io.countersign.engine.state.RunStatus;
import io.countersign.store.StoreException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Executes queued runs: claims one at a time per thread ({@link RunQueue#claimNext}, so several workers in
 * several processes on one store never take the same run), runs its first stretch or carries out its committed
 * decision, and records where it ended. While a run executes, the worker renews its lease; a worker that stops
 * lets the lease lapse, and any worker then recovers the run as its execution journal says
 * ({@link RunQueue#recoverAbandoned}): back to the queue when nothing of the stretch executed, flagged "outcome
 * unknown" for a person when a call had started.
 *
 * <p>A worker that keeps running but is frozen for longer than its lease can lose a run to recovery while it
 * still holds it. The run's epoch then fences it off: its next write for the run is refused and it executes nothing
 * more, so a call runs at most once; still, the run it loses ends flagged or runs again elsewhere, so the lease
 * should be well above the longest pause of a live worker (a minute by default, renewed every third of it).
 */
public final class RunWorker {
    /**
     * How long a thread that found every queued run held waits before it looks again, doubling up to the idle poll
     * while they stay held: a losing client's claim holds the run about a round trip past the change.
     */
    private static final Duration FIRST_HELD_WAIT = Duration.ofMillis(2);
    private final String id;
    private final DefaultRunService runs;
    private final ClaimedDecisions claimed;
    private final RunQueue queue;
    private final StoredRuns stored;
    private final ActorDirectory users;
    private final StoreChanges changes;
    private final Clock clock;
    private final Options options;
    private final Consumer<Progress> progress;
    /** The runs this worker's threads run now, as each was taken from the queue. */
    private final Map<String, StoredRun> inFlight = new ConcurrentHashMap<>();
    private final Object wake = new Object();
    /** Changes signalled so far, guarded by {@code wake}: a thread idles only if none came since it last looked. */
    private long signals;
    private final AtomicLong nextRecovery = new AtomicLong(System.nanoTime());
    private final AtomicReference<StoreException> storeFailure = new AtomicReference<>();
    private final AtomicInteger firstStretches = new AtomicInteger();
    private final AtomicInteger decisions = new AtomicInteger();
    private final AtomicInteger recovered = new AtomicInteger();
    private final AtomicInteger failed = new AtomicInteger();
    private volatile boolean stopped;

    /** @param claimed carries out the decisions the queue hands this worker */
    RunWorker(String id, DefaultRunService runs, ClaimedDecisions claimed, RunQueue queue, StoredRuns stored,
              ActorDirectory users, StoreChanges changes, Clock clock, Options options,
              Consumer<Progress> progress) {
        this.id = Objects.requireNonNull(id, "id");
        this.runs = runs;
        this.claimed = claimed;
        this.queue = queue;
        this.stored = stored;
        this.users = users;
        this.changes = changes;
        this.clock = clock;
        this.options = Objects.requireNonNull(options, "options");
        this.progress = Objects.requireNonNull(progress, "progress");
    }

    /** How a worker runs. */
    public record Options(int threads, Duration lease, Duration idlePoll, boolean drain) {
        public static final int MAX_THREADS = 64;

        /**
         * @param threads  runs executed at once, 1 to {@value #MAX_THREADS}
         * @param lease    how long a claimed run stays this worker's without a renewal, at least a second
         * @param idlePoll how long an idle worker waits for a signal before it looks at the queue again
         * @param drain    stop once the queue is empty, instead of waiting for more
         */
        public Options {
            if (threads < 1 || threads > MAX_THREADS) {
                throw new IllegalArgumentException("a worker runs 1 to " + MAX_THREADS + " threads, not " + threads);
            }
            Objects.requireNonNull(lease, "lease");
            Objects.requireNonNull(idlePoll, "idlePoll");
            if (lease.compareTo(Duration.ofSeconds(1)) < 0) {
                throw new IllegalArgumentException("a worker's lease lasts at least a second, not " + lease);
            }
            if (idlePoll.isNegative() || idlePoll.isZero()) {
                throw new IllegalArgumentException("the idle poll interval must be positive, not " + idlePoll);
            }
        }

        /** One thread, a one-minute lease, a one-second idle poll, running until stopped. */
        public static Options defaults() {
            return new Options(1, Duration.ofMinutes(1), Duration.ofSeconds(1), false);
        }

        public Options withThreads(int count) {
            return new Options(count, lease, idlePoll, drain);
        }

        public Options withLease(Duration duration) {
            return new Options(threads, duration, idlePoll, drain);
        }

        public Options withDrain(boolean untilEmpty) {
            return new Options(threads, lease, idlePoll, untilEmpty);
        }
    }

    /** Something the worker did with one run. */
    public record Progress(String runId, Kind kind, RunStatus status, String detail) {

        /** What happened. */
        public enum Kind {
            /** Ran the first stretch of a queued run; {@code status} is where it ended. */
            FIRST_STRETCH,
            /** Carried out a committed decision; {@code status} is where the run ended. */
            DECISION_CARRIED_OUT,
            /** Took back a run whose worker stopped; {@code status} is queued, or running with outcome unknown. */
            RECOVERED,
            /** Executing the run failed with {@code detail}; its lease lapses and it is recovered. */
            FAILED,
            /** The lease on the run lapsed while this worker still held it, and the run was recovered. */
            LEASE_LOST
        }
    }

    /** What a worker did, once it stopped. */
    public record Report(String workerId, int firstStretches, int decisionsCarriedOut, int recovered, int failed) {
    }

    /** This worker's id in the store: its leases carry it. */
    public String id() {
        return id;
    }

    /**
     * Works until {@link #stop()} is called or, with {@link Options#drain()}, until the queue is empty; a run
     * being executed is finished first.
     *
     * @throws StoreException when a draining worker cannot reach the store
     */
    public Report run() {
        ScheduledExecutorService heartbeat = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "countersign-worker-lease");
            thread.setDaemon(true);
            return thread;
        });
        long period = Math.max(1, options.lease().toMillis() / 3);
        heartbeat.scheduleAtFixedRate(this::renewLeases, period, period, TimeUnit.MILLISECONDS);
        List<Thread> threads = new ArrayList<>();
        try (StoreChanges.Subscription ignored = changes.onQueueChange(this::wakeUp)) {
            for (int i = 0; i < options.threads(); i++) {
                Thread thread = new Thread(this::work, "countersign-worker-" + (i + 1));
                threads.add(thread);
                thread.start();
            }
            for (Thread thread : threads) {
                joinUninterruptibly(thread);
            }
        } finally {
            heartbeat.shutdownNow();
        }
        if (storeFailure.get() != null) {
            throw storeFailure.get();
        }
        return new Report(id, firstStretches.get(), decisions.get(), recovered.get(), failed.get());
    }

    /** Asks the worker to stop once its runs in progress have ended their stretch. */
    public void stop() {
        stopped = true;
        wakeUp();
    }

    private void work() {
        Duration heldWait = FIRST_HELD_WAIT;
        while (!stopped) {
            RunQueue.NextRun next;
            long seen = signalsSoFar();
            try {
                recoverIfDue();
                next = queue.claimNext(id, clock.instant().plus(options.lease()), clock.instant());
            } catch (StoreException e) {
                if (options.drain()) {
                    storeFailure.compareAndSet(null, e);
                    return;
                }
                progress.accept(new Progress(null, Progress.Kind.FAILED, null, e.getMessage()));
                idle(seen, options.idlePoll());
                continue;
            }
            if (next instanceof RunQueue.NextRun.Held) {
                // The holder lets go within a round trip or two, and no change will signal it.
                idle(seen, heldWait);
                Duration doubled = heldWait.multipliedBy(2);
                heldWait = doubled.compareTo(options.idlePoll()) < 0 ? doubled : options.idlePoll();
                continue;
            }
            heldWait = FIRST_HELD_WAIT;
            if (next instanceof RunQueue.NextRun.Taken taken) {
                execute(taken.run());
            } else if (options.drain()) {
                return;
            } else {
                idle(seen, options.idlePoll());
            }
        }
    }

    private void execute(StoredRun run) {
        inFlight.put(run.runId(), run);
        try {
            // The owner's roles as the store knows them now, for every run taken: roles removed stop the work.
            Actor owner = actor(run.initiator());
            if (!Permissions.allows(owner, Operation.START_RUN)) {
                StartedRun refused = claimed.refuseForOwner(run, owner);
                failed.incrementAndGet();
                progress.accept(new Progress(run.runId(), Progress.Kind.FAILED, refused.status(), owner.name()
                        + " may no longer run agents; the run ended as owner_not_permitted"));
            } else if (run.pausedState() == null) {
                StartedRun ended = runs.firstStretch(run, owner);
                firstStretches.incrementAndGet();
                progress.accept(new Progress(run.runId(), Progress.Kind.FIRST_STRETCH, ended.status(), null));
            } else {
                DecisionResult result = claimed.resumeDecided(run);
                decisions.incrementAndGet();
                RunStatus status = result instanceof DecisionResult.Done done ? done.status()
                        : stored.find(run.runId()).map(StoredRun::status).orElse(null);
                progress.accept(new Progress(run.runId(), Progress.Kind.DECISION_CARRIED_OUT, status,
                        result instanceof DecisionResult.Stale ? "a preview changed: the card waits again" : null));
            }
        } catch (RuntimeException e) {
            // The run keeps this worker's lease until it lapses; then recovery decides by its journal.
            failed.incrementAndGet();
            progress.accept(new Progress(run.runId(), Progress.Kind.FAILED, RunStatus.RUNNING,
                    e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
        } finally {
            inFlight.remove(run.runId());
        }
    }

    private Actor actor(String name) {
        // A person removed from the store since still owns their run; with no roles, no admin-only tool is offered.
        return users.find(name).orElseGet(() -> new Actor(name, Set.of()));
    }

    private void recoverIfDue() {
        long now = System.nanoTime();
        long due = nextRecovery.get();
        if (now - due < 0 || !nextRecovery.compareAndSet(due, now + options.lease().toNanos() / 2)) {
            return;
        }
        for (StoredRun run : queue.recoverAbandoned(clock.instant())) {
            recovered.incrementAndGet();
            progress.accept(new Progress(run.runId(), Progress.Kind.RECOVERED, run.status(), run.outcomeUnknown()
                    ? "outcome unknown: " + String.join(", ", run.unknownOutcomeCalls()) : "back in the queue"));
        }
    }

    private void renewLeases() {
        for (StoredRun taken : inFlight.values()) {
            String runId = taken.runId();
            try {
                if (!queue.renewLease(runId, id, clock.instant().plus(options.lease())) && takenAway(taken)) {
                    progress.accept(new Progress(runId, Progress.Kind.LEASE_LOST, null, "the lease lapsed and the"
                            + " run was recovered while this worker still ran it"));
                }
            } catch (StoreException e) {
                progress.accept(new Progress(runId, Progress.Kind.FAILED, RunStatus.RUNNING, e.getMessage()));
            }
        }
    }

    /**
     * Whether a run whose lease this worker could not renew was recovered from it: still queued or running on the
     * decision it was taken with, rather than ended by this worker's own stretch, whose last commit the renewal can
     * race (and whose pause may have been decided, and the run queued again, by then).
     */
    private boolean takenAway(StoredRun taken) {
        return stored.find(taken.runId())
                .filter(now -> now.status() == RunStatus.QUEUED || now.status() == RunStatus.RUNNING)
                .map(now -> Objects.equals(now.lastDecision(), taken.lastDecision())).orElse(false);
    }

    private long signalsSoFar() {
        synchronized (wake) {
            return signals;
        }
    }

    /**
     * Waits for a change or for {@code timeout}, unless a change came since {@code seen}: a run queued while this
     * thread looked at the queue would otherwise wait a whole idle poll.
     */
    private void idle(long seen, Duration timeout) {
        synchronized (wake) {
            if (stopped || signals != seen) {
                return;
            }
            try {
                wake.wait(Math.max(1, timeout.toMillis()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stopped = true;
            }
        }
    }

    private void wakeUp() {
        synchronized (wake) {
            signals++;
            wake.notifyAll();
        }
    }

    /** Waits for a thread; an interrupt asks the worker to stop and the wait goes on until the thread ends. */
    private void joinUninterruptibly(Thread thread) {
        boolean interrupted = false;
        while (true) {
            try {
                thread.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
                stop();
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
