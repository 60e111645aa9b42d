package io.countersign.engine.webhook;

import java.time.Duration;
import java.util.Optional;

/** What became of one attempt to send an event. */
public sealed interface SendResult {
    /** The receiver answered 2xx. */
    record Delivered(int status) implements SendResult {
    }

    /**
     * The receiver answered otherwise, or could not be reached, or the secret could not be read; the event is tried
     * again.
     *
     * @param status     the HTTP status; {@code null} when no answer came
     * @param reason     why, in a few words (never the secret, never the body)
     * @param retryAfter what the receiver asked for in {@code Retry-After}, if anything
     */
    record Failed(Integer status, String reason, Optional<Duration> retryAfter) implements SendResult {
        public Failed {
            retryAfter = retryAfter == null ? Optional.empty() : retryAfter;
        }
    }
}
