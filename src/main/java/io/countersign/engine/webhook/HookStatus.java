package io.countersign.engine.webhook;

import java.time.Instant;
import java.util.Objects;

/**
 * A webhook with how its deliveries stand: the last attempt, if any, and how many events wait to be delivered.
 *
 * @param lastAttempt    when the last delivery was tried; {@code null} before the first
 * @param lastStatus     the HTTP status of that attempt; {@code null} when no answer came
 * @param lastError      why that attempt failed, when it did ({@code null} when it was delivered)
 * @param pending        events not delivered yet, retries included
 * @param failed         events given up on after the last retry
 */
public record HookStatus(Webhook hook, Instant lastAttempt, Integer lastStatus, String lastError, long pending,
                         long failed) {
    public HookStatus {
        Objects.requireNonNull(hook, "hook");
    }

    /** One line: "never tried", "delivered (200)", "failed (503): ...". */
    public String lastDelivery() {
        if (lastAttempt == null) {
            return "never tried";
        }
        String status = lastStatus == null ? "" : " (" + lastStatus + ")";
        return lastError == null ? "delivered" + status : "failed" + status + ": " + lastError;
    }
}
