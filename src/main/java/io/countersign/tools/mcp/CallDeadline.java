package io.countersign.tools.mcp;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Schedulers;

/**
 * A call's deadline that stops while the server waits for a person's answer: the call timeout measures the
 * server's work, not how long someone takes to fill in a form.
 */
final class CallDeadline {
    private final Sinks.Empty<Void> expired = Sinks.empty();
    private long remainingNanos;
    private long startedAt;
    private Disposable timer;
    private int pauses;
    private boolean ended;

    CallDeadline(Duration timeout) {
        remainingNanos = timeout.toNanos();
        start();
    }

    /** Completes when the time is up. */
    Mono<Void> expired() {
        return expired.asMono();
    }

    synchronized void pause() {
        if (pauses++ == 0 && timer != null) {
            timer.dispose();
            timer = null;
            remainingNanos -= System.nanoTime() - startedAt;
        }
    }

    synchronized void resume() {
        if (--pauses == 0 && !ended) {
            start();
        }
    }

    synchronized void end() {
        ended = true;
        if (timer != null) {
            timer.dispose();
            timer = null;
        }
    }

    private void start() {
        startedAt = System.nanoTime();
        timer = Schedulers.parallel().schedule(expired::tryEmitEmpty, Math.max(0, remainingNanos),
                TimeUnit.NANOSECONDS);
    }
}
