package io.countersign.engine.port;

import io.countersign.engine.webhook.CardEventType;
import io.countersign.engine.webhook.HookStatus;
import io.countersign.engine.webhook.SecretReference;
import io.countersign.engine.webhook.Webhook;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/** Port: the admins' outgoing webhooks. Only the reference to each secret is kept, never its value. */
public interface WebhookRegistry {

    /** Adds a webhook under a new id; the events of changes committed from now on are queued for it. */
    Webhook add(URI url, Set<CardEventType> events, SecretReference secret, boolean slack, String by, Instant at);

    /**
     * Removes the webhook and the events still queued for it.
     *
     * @return false when no webhook has this id
     */
    boolean remove(String id);

    /** Every webhook, oldest first, with how its deliveries stand. */
    List<HookStatus> list();

    /**
     * Whether any webhook is registered: without one nothing is queued, and removing a webhook drops its queued
     * events, so there is nothing to deliver either.
     */
    boolean anyRegistered();
}
