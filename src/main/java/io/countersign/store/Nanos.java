package io.countersign.store;

import java.time.Instant;

/** Times in the store are nanoseconds since the epoch: exact for {@link Instant}, ordered alike everywhere. */
final class Nanos {
    private static final long PER_SECOND = 1_000_000_000L;

    private Nanos() {
    }

    static long of(Instant instant) {
        try {
            return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), PER_SECOND), instant.getNano());
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("the time " + instant
                    + " is outside what the store can hold (the years 1678 to 2261)", e);
        }
    }

    static Instant toInstant(long nanos) {
        return Instant.ofEpochSecond(Math.floorDiv(nanos, PER_SECOND), Math.floorMod(nanos, PER_SECOND));
    }
}
