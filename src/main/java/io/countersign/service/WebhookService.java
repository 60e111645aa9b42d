package io.countersign.service;

import io.countersign.engine.Actor;
import io.countersign.engine.webhook.HookStatus;
import io.countersign.engine.webhook.Webhook;
import java.util.List;

/** The admins' outgoing webhooks; see {@code docs/webhooks.md}. */
public interface WebhookService {

    /**
     * Adds a webhook: every event of the listed kinds committed from now on is sent to it.
     *
     * @param url    an absolute {@code https} (or {@code http}) URL
     * @param events a comma-separated list of {@code waiting}, {@code decided}, {@code expired}, {@code escalated}
     * @param secret where the signing secret is kept, {@code env:NAME} or {@code file:PATH}; never the value
     * @param slack  a Slack-compatible text body instead of a CloudEvent
     * @throws IllegalArgumentException naming what is wrong with the URL, the events or the secret
     * @throws NotPermittedException    for anyone but an admin
     */
    Webhook add(Actor actor, String url, String events, String secret, boolean slack);

    /**
     * Removes a webhook and the events still queued for it.
     *
     * @return false when no webhook has this id
     */
    boolean remove(Actor actor, String id);

    /** Every webhook, oldest first, with its last delivery and what waits to be sent. */
    List<HookStatus> list(Actor actor);

    /**
     * Sends the events due now from this process, once, as a cron job would; a console or a worker does this on
     * its own. Needs no role, as the deadline sweep needs none: it sends only what was committed.
     *
     * @return how many attempts were made
     */
    int deliverDue();
}
