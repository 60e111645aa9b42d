package io.countersign.service;

import io.countersign.engine.RetryPolicy;
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
 * after the retry policy's delay (or what the receiver's {@code Retry-After} asks, within the policy's longest
 * delay), until the policy's last attempt. A process stopped after a send and before its record sends the
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
     * @param retries how a failed event is sent again, and how many attempts it gets before it is given up on
     * @param hold    how long a claim keeps other processes off an event; longer than a batch of sends takes
     * @param batch   events claimed at once
     */
    public record Policy(RetryPolicy retries, Duration hold, int batch) {
        /** About a day of retries: 10 s, 20 s, 40 s ... up to an hour between attempts, 30 attempts. */
        public static final Policy DEFAULTS = new Policy(new RetryPolicy(Duration.ofSeconds(10), 2,
                Duration.ofHours(1), 30, 0), Duration.ofMinutes(5), 10);

        public Policy {
            Objects.requireNonNull(retries, "retries");
            Objects.requireNonNull(hold, "hold");
            if (retries.maxAttempts() == RetryPolicy.UNLIMITED || batch < 1) {
                throw new IllegalArgumentException("a delivery policy needs a last attempt and a batch of one");
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
        if (!policy.retries().allowsAnother(attempt)) {
            outbox.giveUp(delivery, now, failed.status(), failed.reason() + "; given up after " + attempt
                    + " attempts");
            return;
        }
        outbox.retryAt(delivery, now, failed.status(), failed.reason(),
                now.plus(policy.retries().delayBefore(attempt, failed.retryAfter())));
    }
}
