/**
 * Outgoing webhooks: the card events they report ({@link io.countersign.engine.webhook.CardEvent}), the hooks
 * themselves, and what a delivery attempt came to. The outbox and the sender are ports in
 * {@code io.countersign.engine.port}.
 */
package io.countersign.engine.webhook;
