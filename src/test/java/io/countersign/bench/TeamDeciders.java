package io.countersign.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.countersign.engine.Actor;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.WaitingRun;
import io.countersign.engine.decision.Decision;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.store.StoreLocation;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Deciding clients, each a process's worth of its own (a runtime with its own pool and change feed, as
 * {@code decide --queue} opens one): each reads the inbox, takes its first page in a random order and approves every
 * card on it for a worker to carry out, with the call's argument edited to the run's id, so that the ledger names
 * the run of every execution. Several clients race for the same cards; the store lets exactly one win each.
 */
final class TeamDeciders implements AutoCloseable {
    /** The cards a client takes at a time: the inbox's first page. */
    private static final int PAGE = 50;
    private final List<Thread> threads = new ArrayList<>();
    private final List<CountersignRuntime> runtimes = new CopyOnWriteArrayList<>();
    /** Each run decided, with the wall-clock microsecond its decider had the committed answer. */
    private final Map<String, Long> committed = new ConcurrentHashMap<>();
    private final Set<String> decidedTwice = ConcurrentHashMap.newKeySet();
    private final AtomicLong lostRaces = new AtomicLong();
    private final List<String> refusals = new CopyOnWriteArrayList<>();
    private volatile boolean stopped;

    private TeamDeciders() {
    }

    static TeamDeciders start(StoreLocation location, int count) {
        TeamDeciders deciders = new TeamDeciders();
        for (int i = 0; i < count; i++) {
            CountersignRuntime runtime = CountersignRuntime.open(location, CountersignRuntime.Work.QUEUE_DECISIONS,
                    Duration.ofSeconds(30));
            deciders.runtimes.add(runtime);
            Thread thread = new Thread(() -> deciders.decide(runtime, new Random()), "decider-" + (i + 1));
            deciders.threads.add(thread);
            thread.start();
        }
        return deciders;
    }

    private void decide(CountersignRuntime runtime, Random random) {
        Actor person = runtime.localUser();
        Object changed = new Object();
        try (AutoCloseable ignored = runtime.runs().onChange(() -> {
            synchronized (changed) {
                changed.notifyAll();
            }
        })) {
            while (!stopped) {
                List<WaitingRun> inbox = runtime.runs().inbox(person);
                if (inbox.isEmpty()) {
                    synchronized (changed) {
                        changed.wait(50);
                    }
                    continue;
                }
                List<WaitingRun> page = new ArrayList<>(inbox.subList(0, Math.min(PAGE, inbox.size())));
                Collections.shuffle(page, random);
                for (WaitingRun card : page) {
                    if (stopped) {
                        break;
                    }
                    approve(runtime, person, card);
                }
            }
        } catch (Exception e) {
            refusals.add(Thread.currentThread().getName() + " stopped: " + e);
        }
    }

    private void approve(CountersignRuntime runtime, Actor person, WaitingRun card) {
        DecisionResult result = runtime.execution().decideForWorker(person, card.runId(), card.digest(),
                List.of(Decision.CallVerdict.approveEdited(0,
                        JsonNodeFactory.instance.objectNode().put("line", card.runId()))));
        long at = micros(Instant.now());
        if (result instanceof DecisionResult.Done done) {
            if (committed.putIfAbsent(done.runId(), at) != null) {
                decidedTwice.add(done.runId());
            }
        } else if (result instanceof DecisionResult.AlreadyDecided || result instanceof DecisionResult.NotWaiting
                || result instanceof DecisionResult.Stale) {
            lostRaces.incrementAndGet();
        } else {
            refusals.add(card.runId() + ": " + result);
        }
    }

    static long micros(Instant instant) {
        return ChronoUnit.MICROS.between(Instant.EPOCH, instant);
    }

    /** Each run decided, with the microsecond its decider had the committed answer. */
    Map<String, Long> committed() {
        return Map.copyOf(committed);
    }

    /** How many decisions were committed within {@code [from, to)}, in wall-clock microseconds. */
    long committedBetween(long from, long to) {
        return committed.values().stream().filter(at -> at >= from && at < to).count();
    }

    /** Runs that two clients were both told they decided: a pause with two decisions. */
    Set<String> decidedTwice() {
        return Set.copyOf(decidedTwice);
    }

    /** Answers of "already decided", "no longer waiting" or "changed since shown" to a client that came second. */
    long lostRaces() {
        return lostRaces.get();
    }

    /** Any other answer, or a client that stopped on an error. */
    List<String> refusals() {
        return List.copyOf(refusals);
    }

    @Override
    public void close() throws InterruptedException {
        if (stopped) {
            return;
        }
        stopped = true;
        for (Thread thread : threads) {
            thread.join();
        }
        runtimes.forEach(CountersignRuntime::close);
    }
}
