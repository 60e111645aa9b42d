package io.countersign.runtime;

import io.countersign.service.DefaultWebhookService;
import io.countersign.service.WebhookDeliveries;
import io.countersign.service.WebhookService;
import io.countersign.store.Store;
import io.countersign.telemetry.LiveTelemetry;
import io.countersign.webhook.HttpWebhookSender;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Supplier;
import okhttp3.OkHttpClient;

/** The webhooks of one process: the admins' service, and the delivery loop once the process starts it. */
final class WebhookWiring implements AutoCloseable {
    /** How often the loop looks for retries that fell due; new events are sent as soon as they are committed. */
    private static final Duration RETRY_PERIOD = Duration.ofSeconds(2);
    private final Store store;
    private final WebhookService service;
    private final WebhookDeliveries deliveries;
    private WebhookDispatcher dispatcher;

    WebhookWiring(Store store, Supplier<OkHttpClient> http, LiveTelemetry telemetry, Clock clock) {
        this.store = store;
        this.deliveries = new WebhookDeliveries(store.webhooks(),
                telemetry.countingFailures(new HttpWebhookSender(http, System::getenv)), clock,
                WebhookDeliveries.Policy.DEFAULTS);
        this.service = new DefaultWebhookService(store.webhooks(), store.users(), clock, deliveries);
    }

    WebhookService service() {
        return service;
    }

    /** Starts delivering the outbox's events from this process, once; see {@link WebhookDispatcher}. */
    synchronized void startDelivering() {
        if (dispatcher == null) {
            dispatcher = new WebhookDispatcher(deliveries, store.webhooks(), store.changes(), RETRY_PERIOD);
        }
    }

    @Override
    public synchronized void close() {
        if (dispatcher != null) {
            dispatcher.close();
        }
    }
}
