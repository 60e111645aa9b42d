package io.countersign.engine.port;

import io.countersign.engine.webhook.Delivery;
import io.countersign.engine.webhook.SendResult;

/** Port: sends one event to its webhook once, signed, and says what came of it; it never throws for a failure. */
@FunctionalInterface
public interface WebhookSender {
    SendResult send(Delivery delivery);
}
