package io.countersign.bench;

import io.countersign.engine.Actor;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.store.StoreLocation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Open consoles, as far as the store sees them: each its own runtime following the change feed (LISTEN on a
 * connection of its own) and reading the inbox again after a change, one read at a time, the changes that came
 * during a read answered by the next one.
 */
final class TeamListeners implements AutoCloseable {
    private final List<Thread> threads = new ArrayList<>();
    private final List<CountersignRuntime> runtimes = new CopyOnWriteArrayList<>();
    private final AtomicLong notifications = new AtomicLong();
    private final List<Long> reloadNanos = new ArrayList<>();
    private volatile boolean stopped;

    private TeamListeners() {
    }

    static TeamListeners start(StoreLocation location, int count) {
        TeamListeners listeners = new TeamListeners();
        for (int i = 0; i < count; i++) {
            CountersignRuntime runtime = CountersignRuntime.open(location, CountersignRuntime.Work.ADMINISTER,
                    Duration.ZERO);
            listeners.runtimes.add(runtime);
            Thread thread = new Thread(() -> listeners.follow(runtime), "console-" + (i + 1));
            listeners.threads.add(thread);
            thread.start();
        }
        return listeners;
    }

    private void follow(CountersignRuntime runtime) {
        Actor person = runtime.localUser();
        boolean[] changed = {true};
        try (AutoCloseable ignored = runtime.runs().onChange(() -> {
            notifications.incrementAndGet();
            synchronized (changed) {
                changed[0] = true;
                changed.notifyAll();
            }
        })) {
            while (!stopped) {
                synchronized (changed) {
                    if (!changed[0]) {
                        changed.wait(100);
                        continue;
                    }
                    changed[0] = false;
                }
                long start = System.nanoTime();
                runtime.runs().inbox(person);
                long took = System.nanoTime() - start;
                synchronized (reloadNanos) {
                    reloadNanos.add(took);
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException("a console's change feed stopped", e);
        }
    }

    /** The notifications and inbox reads since the last call, across every console. */
    record Activity(long notifications, List<Long> reloadNanos) {
    }

    Activity take() {
        synchronized (reloadNanos) {
            List<Long> reloads = List.copyOf(reloadNanos);
            reloadNanos.clear();
            return new Activity(notifications.getAndSet(0), reloads);
        }
    }

    @Override
    public void close() throws InterruptedException {
        stopped = true;
        for (Thread thread : threads) {
            thread.join();
        }
        runtimes.forEach(CountersignRuntime::close);
    }
}
