package io.countersign.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.countersign.engine.port.WebhookOutbox;
import io.countersign.engine.port.WebhookRegistry;
import io.countersign.engine.webhook.CardEventType;
import io.countersign.engine.webhook.Delivery;
import io.countersign.engine.webhook.HookStatus;
import io.countersign.engine.webhook.SecretReference;
import io.countersign.engine.webhook.SendResult;
import io.countersign.engine.webhook.Webhook;
import io.countersign.service.WebhookDeliveries;
import io.countersign.store.Store;
import io.countersign.store.StoreLocation;
import io.countersign.store.WebhookStore;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every console and worker delivers webhooks; while none is registered, the runs' changes do not make each of them
 * look at the outbox, and once one is added (a change of the settings) they look at every change again.
 */
class WebhookDispatcherTest {
    /** Longer than the test: only the first round, at once, and the changes make rounds. */
    private static final Duration PERIOD = Duration.ofHours(1);

    @TempDir
    Path folder;

    @Test
    void runChangesLookAtTheOutboxOnlyOnceAWebhookIsRegistered() {
        try (Store store = Store.open(new StoreLocation.SqliteFile(folder.resolve("countersign.db")))) {
            CountingHooks hooks = new CountingHooks(store.webhooks());
            AtomicInteger heard = new AtomicInteger();
            WebhookDeliveries deliveries = new WebhookDeliveries(hooks, delivery -> new SendResult.Delivered(204),
                    Clock.systemUTC(), WebhookDeliveries.Policy.DEFAULTS);
            try (WebhookDispatcher dispatcher = new WebhookDispatcher(deliveries, hooks, store.changes(), PERIOD);
                 AutoCloseable ignored = store.changes().onRunChange(heard::incrementAndGet)) {
                await().atMost(Duration.ofSeconds(10)).until(() -> hooks.lookups.get() == 1);

                for (int i = 0; i < 5; i++) {
                    store.runs().enqueue("r" + i, "triage", "maria", "Sort the tickets", false, Instant.now());
                }
                // the dispatcher's listener is told of each change before this test's own
                await().atMost(Duration.ofSeconds(10)).until(() -> heard.get() == 5);
                assertThat(hooks.claims.get()).isZero();

                store.webhooks().add(URI.create("http://127.0.0.1:9/hook"), Set.of(CardEventType.WAITING),
                        SecretReference.parse("env:HOOK_SECRET"), false, "ada", Instant.now());
                await().atMost(Duration.ofSeconds(10)).until(() -> hooks.claims.get() == 1);
                store.runs().enqueue("r5", "triage", "maria", "Sort the tickets", false, Instant.now());
                await().atMost(Duration.ofSeconds(10)).until(() -> hooks.claims.get() == 2);
                assertThat(hooks.lookups.get()).isEqualTo(2);
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }
    }

    /** The store's webhooks, counting the looks for a registered webhook and the claims of due events. */
    private static final class CountingHooks implements WebhookRegistry, WebhookOutbox {
        private final WebhookStore store;
        final AtomicInteger lookups = new AtomicInteger();
        final AtomicInteger claims = new AtomicInteger();

        CountingHooks(WebhookStore store) {
            this.store = store;
        }

        @Override
        public boolean anyRegistered() {
            lookups.incrementAndGet();
            return store.anyRegistered();
        }

        @Override
        public List<Delivery> claim(Instant now, int limit, Duration hold) {
            claims.incrementAndGet();
            return store.claim(now, limit, hold);
        }

        @Override
        public Webhook add(URI url, Set<CardEventType> events, SecretReference secret, boolean slack, String by,
                           Instant at) {
            return store.add(url, events, secret, slack, by, at);
        }

        @Override
        public boolean remove(String id) {
            return store.remove(id);
        }

        @Override
        public List<HookStatus> list() {
            return store.list();
        }

        @Override
        public void delivered(Delivery delivery, Instant at, int status) {
            store.delivered(delivery, at, status);
        }

        @Override
        public void retryAt(Delivery delivery, Instant at, Integer status, String error, Instant next) {
            store.retryAt(delivery, at, status, error, next);
        }

        @Override
        public void giveUp(Delivery delivery, Instant at, Integer status, String error) {
            store.giveUp(delivery, at, status, error);
        }
    }
}
