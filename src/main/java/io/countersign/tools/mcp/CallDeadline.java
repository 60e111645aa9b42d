package io.countersign.tools.mcp;

import java.time.Duration;

/**
 * A call's deadline that stops while the server waits for a person's answer: the call timeout measures the
 * server's work, not how long someone takes to fill in a form. It arms no timer: the thread waiting for the call
 * waits at most the time left, so a call wakes no other thread.
 */
final class CallDeadline {
    private long remainingNanos;
    private long startedAt;
    private int pauses;

    CallDeadline(Duration timeout) {
        remainingNanos = timeout.toNanos();
        startedAt = System.nanoTime();
    }

    synchronized void pause() {
        if (pauses++ == 0) {
            remainingNanos -= System.nanoTime() - startedAt;
        }
    }

    synchronized void resume() {
        if (--pauses == 0) {
            startedAt = System.nanoTime();
        }
    }

    /** The time left now, zero or less once it is up; {@link Long#MAX_VALUE} while the deadline is stopped. */
    synchronized long remainingNanos() {
        return pauses > 0 ? Long.MAX_VALUE : remainingNanos - (System.nanoTime() - startedAt);
    }
}
