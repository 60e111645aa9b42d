package io.countersign.service;

import io.countersign.engine.port.WebhookOutbox;
import io.countersign.engine.port.WebhookSender;
import io.countersign.engine.webhook.Delivery;
import io.countersign.engine.webhook.SendResult;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * The delivery of the outbox's due events: each claimed, sent once, and recorded as delivered, or as due again
 * after a backoff that doubles per attempt (or what the receiver's {@code Retry-After} asks, within the policy's
 * longest wait), until the policy's last attempt. A process stopped after a send and before its record sends the
 * event again: delivery is at least once, and receivers drop repeats by the event's id.
 */
public final class WebhookDeliveries {
    private final WebhookOutbox outbox;
    private final WebhookSender sender;
    private final Clock clock;
    private final Policy policy;

    /**
     * How deliveries are retried.
     *
     * @param firstRetry  the wait after the first failure; each further failure doubles it
     * @param longestWait no wait is longer, whatever a receiver asks for
     * @param attempts    the attempts before an event is given up on
     * @param hold        how long a claim keeps other processes off an event; longer than a batch of sends takes
     * @param batch       events claimed at once
     */
    public record Policy(Duration firstRetry, Duration longestWait, int attempts, Duration hold, int batch) {
        /** About a day of retries: 10 s, 20 s, 40 s ... up to an hour between attempts, 30 attempts. */
        public static final Policy DEFAULTS = new Policy(Duration.ofSeconds(10), Duration.ofHours(1), 30,
                Duration.ofMinutes(5), 10);

        public Policy {
            Objects.requireNonNull(firstRetry, "firstRetry");
            Objects.requireNonNull(longestWait, "longestWait");
            Objects.requireNonNull(hold, "hold");
            if (attempts < 1 || batch < 1) {
                throw new IllegalArgumentException("a delivery policy needs at least one attempt and a batch of one");
            }
        }
    }

    public WebhookDeliveries(WebhookOutbox outbox, WebhookSender sender, Clock clock, Policy policy) {
        this.outbox = Objects.requireNonNull(outbox, "outbox");
        this.sender = Objects.requireNonNull(sender, "sender");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.policy = Objects.requireNonNull(policy, "policy");
    }

    /**
     * Sends every event due now, batch after batch, until none is left.
     *
     * @return how many attempts were made
     */
    public int deliverDue() {
        int attempted = 0;
        List<Delivery> claimed;
        do {
            claimed = outbox.claim(clock.instant(), policy.batch(), policy.hold());
            for (Delivery delivery : claimed) {
                deliver(delivery);
                attempted++;
            }
        } while (claimed.size() == policy.batch());
        return attempted;
    }

    private void deliver(Delivery delivery) {
        SendResult result = sender.send(delivery);
        Instant now = clock.instant();
        if (result instanceof SendResult.Delivered delivered) {
            outbox.delivered(delivery, now, delivered.status());
            return;
        }
        SendResult.Failed failed = (SendResult.Failed) result;
        int attempt = delivery.attempts() + 1;
        if (attempt >= policy.attempts()) {
            outbox.giveUp(delivery, now, failed.status(), failed.reason() + "; given up after " + attempt
                    + " attempts");
            return;
        }
        outbox.retryAt(delivery, now, failed.status(), failed.reason(), now.plus(waitAfter(attempt, failed)));
    }

    /** What the receiver asked for, else the first retry's wait doubled per earlier failure; never over the cap. */
    Duration waitAfter(int failures, SendResult.Failed failed) {
        Duration backoff = failed.retryAfter().orElseGet(() -> {
            Duration wait = policy.firstRetry();
            for (int i = 1; i < failures && wait.compareTo(policy.longestWait()) < 0; i++) {
                wait = wait.multipliedBy(2);
            }
            return wait;
        });
        return backoff.compareTo(policy.longestWait()) > 0 ? policy.longestWait() : backoff;
    }
}
