package io.countersign.service;

import io.countersign.engine.Actor;
import io.countersign.engine.port.ActorDirectory;
import io.countersign.engine.port.WebhookRegistry;
import io.countersign.engine.webhook.CardEventType;
import io.countersign.engine.webhook.HookStatus;
import io.countersign.engine.webhook.SecretReference;
import io.countersign.engine.webhook.Webhook;
import java.time.Clock;
import java.util.List;
import java.util.Objects;

/** The webhooks over their registry, for admins only. */
public final class DefaultWebhookService implements WebhookService {
    private final WebhookRegistry registry;
    private final Permissions permissions;
    private final Clock clock;
    private final WebhookDeliveries deliveries;

    public DefaultWebhookService(WebhookRegistry registry, ActorDirectory users, Clock clock,
                                 WebhookDeliveries deliveries) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.permissions = new Permissions(users);
        this.clock = Objects.requireNonNull(clock, "clock");
        this.deliveries = Objects.requireNonNull(deliveries, "deliveries");
    }

    @Override
    public Webhook add(Actor actor, String url, String events, String secret, boolean slack) {
        Actor admin = permissions.requireNow(actor, Operation.CHANGE_WEBHOOKS);
        // Every input is checked before anything is written, so a bad one leaves no half-made hook.
        var checkedUrl = Webhook.checkedUrl(url);
        var checkedEvents = CardEventType.parseList(events);
        var reference = SecretReference.parse(secret);
        return registry.add(checkedUrl, checkedEvents, reference, slack, admin.name(), clock.instant());
    }

    @Override
    public boolean remove(Actor actor, String id) {
        permissions.requireNow(actor, Operation.CHANGE_WEBHOOKS);
        return id != null && registry.remove(id.strip());
    }

    @Override
    public List<HookStatus> list(Actor actor) {
        permissions.requireNow(actor, Operation.VIEW_WEBHOOKS);
        return registry.list();
    }

    @Override
    public int deliverDue() {
        return deliveries.deliverDue();
    }
}
