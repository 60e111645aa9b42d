package io.countersign.engine;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;

/**
 * How a failed attempt is tried again: the delay before the first retry, growing by {@code multiplier} with each
 * further one up to {@code maxDelay}, a random part taken off it so that clients that failed together do not retry
 * together, and how many attempts there are in all. A peer's {@code Retry-After} ({@link RetryAfter}) takes the
 * place of the backoff, still within {@code maxDelay}. One value per caller, passed where it is needed (the model
 * client, webhook delivery, MCP reconnects), never a formula of its own.
 *
 * @param initialDelay the delay before the first retry
 * @param multiplier   how much each further retry's delay grows, at least 1
 * @param maxDelay     no delay is longer, whatever the backoff or the peer asks for
 * @param maxAttempts  the attempts in all, the first included; {@link #UNLIMITED} for no limit
 * @param jitter       the share of a backoff delay that may be taken off at random, from 0 (none) to 1
 */
// written here rather than taken from a retry library: the engine depends on Java and Jackson only
public record RetryPolicy(Duration initialDelay, double multiplier, Duration maxDelay, int maxAttempts,
                          double jitter) {
    /** For {@code maxAttempts}: tried again for as long as the caller keeps asking. */
    public static final int UNLIMITED = 0;

    public RetryPolicy {
        Objects.requireNonNull(initialDelay, "initialDelay");
        Objects.requireNonNull(maxDelay, "maxDelay");
        if (initialDelay.isNegative() || initialDelay.isZero()) {
            throw new IllegalArgumentException("the first retry's delay must be positive, got " + initialDelay);
        }
        if (maxDelay.isNegative()) {
            throw new IllegalArgumentException("the longest delay must not be negative, got " + maxDelay);
        }
        if (!(multiplier >= 1) || Double.isInfinite(multiplier)) {
            throw new IllegalArgumentException("the multiplier must be a number of at least 1, got " + multiplier);
        }
        if (maxAttempts < 0) {
            throw new IllegalArgumentException("the attempts must be 0 (unlimited) or more, got " + maxAttempts);
        }
        if (!(jitter >= 0 && jitter <= 1)) {
            throw new IllegalArgumentException("the jitter must be from 0 to 1, got " + jitter);
        }
    }

    /** Whether another attempt may follow the {@code made} ones. */
    public boolean allowsAnother(int made) {
        return maxAttempts == UNLIMITED || made < maxAttempts;
    }

    /** The delay before retry {@code retry} (1 for the first retry), with no peer's wish and a random jitter. */
    public Duration delayBefore(int retry) {
        return delayBefore(retry, Optional.empty());
    }

    /** The delay before retry {@code retry}: the peer's {@code Retry-After} within the cap, else the backoff. */
    public Duration delayBefore(int retry, Optional<Duration> retryAfter) {
        return delayBefore(retry, retryAfter, ThreadLocalRandom.current());
    }

    /**
     * As {@link #delayBefore(int, Optional)}, drawing the jitter from {@code random}.
     *
     * @param retry 1 for the first retry; lower counts as 1
     */
    public Duration delayBefore(int retry, Optional<Duration> retryAfter, RandomGenerator random) {
        if (retryAfter.isPresent()) {
            Duration asked = retryAfter.get().isNegative() ? Duration.ZERO : retryAfter.get();
            return asked.compareTo(maxDelay) > 0 ? maxDelay : asked;
        }
        double grown = initialDelay.toMillis() * Math.pow(multiplier, Math.max(retry, 1) - 1.0);
        long full = (long) Math.min(grown, maxDelay.toMillis());
        long spread = (long) (full * jitter);
        return Duration.ofMillis(full - spread + (spread == 0 ? 0 : random.nextLong(spread + 1)));
    }
}
