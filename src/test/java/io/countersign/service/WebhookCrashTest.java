package io.countersign.service;

import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.webhook.CardEventType;
import io.countersign.engine.webhook.SecretReference;
import io.countersign.store.Store;
import io.countersign.store.StoreLocation;
import io.countersign.webhook.HttpWebhookSender;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process killed with SIGKILL after its commits and after claiming their events, before sending any: the next
 * process delivers every event once its claim's hold is over, each id exactly once, and not before.
 */
class WebhookCrashTest {
    private static final int RUNS = 3;
    /** Long enough that the restarted process finds the dead one's claim still held. */
    private static final Duration HOLD = Duration.ofSeconds(60);

    @TempDir
    Path folder;

    @Test
    void eventsCommittedBeforeAKillAreDeliveredAfterTheRestartOncePerId() throws Exception {
        Path file = folder.resolve("store.db");
        try (Store store = Store.open(new StoreLocation.SqliteFile(file))) {
            store.users().add("ada", Set.of(Role.ADMIN), Actor.of("test-setup"));
        }
        try (MockWebServer receiver = new MockWebServer()) {
            receiver.start();
            try (Store store = Store.open(new StoreLocation.SqliteFile(file))) {
                store.webhooks().add(receiver.url("/hook").uri(), EnumSet.of(CardEventType.WAITING,
                        CardEventType.DECIDED), SecretReference.parse("env:HOOK_SECRET"), false, "ada", Instant.now());
            }
            try (ChildJvm child = ChildJvm.start(WebhookCommitter.class, folder.resolve("errors.txt"),
                    file.toString(), folder.resolve("ledger.txt").toString(), Integer.toString(RUNS),
                    Long.toString(HOLD.toMillis()))) {
                assertThat(child.awaitLineStartingWith("claimed ", Duration.ofMinutes(2)))
                        .isEqualTo("claimed " + 2 * RUNS);
                child.kill();
            }
            assertThat(receiver.getRequestCount()).isZero();

            OkHttpClient http = new OkHttpClient();
            try (Store restarted = Store.open(new StoreLocation.SqliteFile(file))) {
                for (int i = 0; i < 2 * RUNS; i++) {
                    receiver.enqueue(new MockResponse.Builder().code(200).build());
                }
                HttpWebhookSender sender = new HttpWebhookSender(() -> http, Map.of("HOOK_SECRET", "secret")::get);
                WebhookDeliveries now = new WebhookDeliveries(restarted.webhooks(), sender, Clock.systemUTC(),
                        WebhookDeliveries.Policy.DEFAULTS);
                assertThat(now.deliverDue()).as("the dead process's claim holds until its hold is over").isZero();
                WebhookDeliveries afterTheHold = new WebhookDeliveries(restarted.webhooks(), sender,
                        Clock.offset(Clock.systemUTC(), HOLD.plusSeconds(1)), WebhookDeliveries.Policy.DEFAULTS);
                assertThat(afterTheHold.deliverDue()).isEqualTo(2 * RUNS);
                assertThat(afterTheHold.deliverDue()).isZero();

                Map<String, Integer> perId = new HashMap<>();
                for (int i = 0; i < 2 * RUNS; i++) {
                    RecordedRequest request = receiver.takeRequest(5, TimeUnit.SECONDS);
                    perId.merge(request.getHeaders().get("Countersign-Event-Id"), 1, Integer::sum);
                }
                assertThat(perId).hasSize(2 * RUNS).allSatisfy((id, count) -> assertThat(count).isEqualTo(1));
                assertThat(receiver.getRequestCount()).isEqualTo(2 * RUNS);
            } finally {
                http.dispatcher().executorService().shutdown();
            }
        }
    }
}
