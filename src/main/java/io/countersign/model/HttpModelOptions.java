package io.countersign.model;

import io.countersign.engine.RetryPolicy;
import java.time.Duration;
import java.util.Objects;

/**
 * How patiently an HTTP model client waits and retries.
 *
 * @param connectTimeout how long to wait for a connection
 * @param readTimeout    how long the provider may stay silent while answering
 * @param callTimeout    how long one attempt may take in all, from connecting to the last byte of the answer
 * @param maxRetries     how many times a request is sent again after a 429, a 5xx or a dropped connection
 * @param baseBackoff    the wait before the first retry; it doubles with every further retry, jittered
 */
public record HttpModelOptions(Duration connectTimeout, Duration readTimeout, Duration callTimeout, int maxRetries,
                               Duration baseBackoff) {
    /** The most retries a configuration may ask for, so that a failing provider fails in bounded time. */
    public static final int MAX_RETRIES = 10;

    /** Generous read and call timeouts: a model may think for a minute or two before it answers. */
    public static final HttpModelOptions DEFAULTS = new HttpModelOptions(Duration.ofSeconds(10),
            Duration.ofSeconds(120), Duration.ofSeconds(300), 2, Duration.ofMillis(500));

    public HttpModelOptions {
        requirePositive(connectTimeout, "connectTimeout");
        requirePositive(readTimeout, "readTimeout");
        requirePositive(callTimeout, "callTimeout");
        requirePositive(baseBackoff, "baseBackoff");
        if (maxRetries < 0 || maxRetries > MAX_RETRIES) {
            throw new IllegalArgumentException("maxRetries must be between 0 and " + MAX_RETRIES + ", got "
                    + maxRetries);
        }
    }

    /**
     * The retry policy these options make: {@code maxRetries} retries after the first attempt, the first after
     * {@code baseBackoff}, doubling up to {@link OpenAiCompatibleChatModel#MAX_RETRY_WAIT} (also the most a
     * provider's {@code Retry-After} is waited for), a random half of each backoff taken off.
     */
    public RetryPolicy retries() {
        return new RetryPolicy(baseBackoff, 2, OpenAiCompatibleChatModel.MAX_RETRY_WAIT, maxRetries + 1, 0.5);
    }

    private static void requirePositive(Duration duration, String what) {
        Objects.requireNonNull(duration, what);
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException(what + " must be positive, got " + duration);
        }
    }
}
