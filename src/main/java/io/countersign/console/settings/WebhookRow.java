package io.countersign.console.settings;

import io.countersign.engine.webhook.HookStatus;

/**
 * One webhook as the settings screen lists it: where it sends, which events, how its last delivery went and what
 * waits to be sent.
 */
public record WebhookRow(String id, String url, String events, String body, String lastDelivery, String queue,
                         boolean failing) {

    static WebhookRow of(HookStatus status, String queue) {
        return new WebhookRow(status.hook().id(), status.hook().url().toString(), status.hook().eventList()
                .replace(",", ", "), status.hook().slack() ? "Slack text" : "CloudEvent", status.lastDelivery(),
                queue, status.lastError() != null || status.failed() > 0);
    }
}
