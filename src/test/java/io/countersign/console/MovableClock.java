package io.countersign.console;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock in UTC that stands still until a test moves it. */
public final class MovableClock extends Clock {
    private Instant now;

    public MovableClock(Instant start) {
        this.now = start;
    }

    public void advance(Duration duration) {
        now = now.plus(duration);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("the test clock stays in UTC");
    }

    @Override
    public Instant instant() {
        return now;
    }
}
