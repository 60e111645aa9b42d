package io.countersign.engine.webhook;

import java.util.Objects;

/**
 * One event to send to one webhook, claimed by this process for a while.
 *
 * @param id       the outbox row's id
 * @param attempts how many times it was tried before
 */
public record Delivery(long id, Webhook hook, CardEvent event, int attempts) {
    public Delivery {
        Objects.requireNonNull(hook, "hook");
        Objects.requireNonNull(event, "event");
    }
}
