package io.countersign.engine.port;

import io.countersign.engine.webhook.Delivery;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Port: the durable outbox of webhook events. The store queues an event for every subscribed webhook in the very
 * transaction that commits the change it reports (a pause, a decision's claim, a deadline's claim, an escalation),
 * so an event is never reported for a change that did not commit, nor lost for one that did. Delivery is at least
 * once: a claim holds a row for a while, and a process that stops holding it lets the next claim take it again.
 */
public interface WebhookOutbox {

    /**
     * Claims up to {@code limit} events due at {@code now} for this process, each for {@code hold}: no other claim
     * takes them before that, whichever process asks.
     */
    List<Delivery> claim(Instant now, int limit, Duration hold);

    /** The event reached its webhook; it is not sent again. */
    void delivered(Delivery delivery, Instant at, int status);

    /** The attempt failed; the event is due again at {@code next}. */
    void retryAt(Delivery delivery, Instant at, Integer status, String error, Instant next);

    /** The last attempt failed too; the event is kept as failed and not sent again. */
    void giveUp(Delivery delivery, Instant at, Integer status, String error);
}
