package io.countersign.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import com.fasterxml.jackson.databind.JsonNode;
import io.cloudevents.CloudEvent;
import io.cloudevents.jackson.JsonFormat;
import io.countersign.console.MovableClock;
import io.countersign.engine.Actor;
import io.countersign.engine.Json;
import io.countersign.engine.RetryPolicy;
import io.countersign.engine.Role;
import io.countersign.engine.agent.DecisionDeadlines;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.invocation.InvocationRules;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.IdGenerator;
import io.countersign.engine.port.ScriptedChatModel;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.engine.webhook.Delivery;
import io.countersign.engine.webhook.HookStatus;
import io.countersign.store.Store;
import io.countersign.store.StoreLocation;
import io.countersign.store.StoredAgentConfiguration;
import io.countersign.tools.NetworkntSchemaValidator;
import io.countersign.webhook.HttpWebhookSender;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Outgoing webhooks over a real store and a real HTTP receiver: the events each card change queues in its own
 * transaction, their CloudEvent and signature, retries with backoff and {@code Retry-After}, and claims from two
 * processes at once. Run on SQLite and PostgreSQL by the subclasses.
 */
abstract class WebhookSuite {
    static final Instant START = Instant.parse("2026-12-02T09:00:00Z");
    static final Actor OLGA = Actor.of("olga", Role.OPERATOR);
    static final Actor ADA = Actor.of("ada", Role.ADMIN);
    static final String SECRET = "s3cret-for-the-test";
    static final WebhookDeliveries.Policy QUICK = new WebhookDeliveries.Policy(new RetryPolicy(Duration.ofSeconds(10),
            2, Duration.ofMinutes(10), 5, 0), Duration.ofMinutes(1), 10);

    @TempDir
    Path folder;

    final MovableClock clock = new MovableClock(START);
    final OkHttpClient http = new OkHttpClient();
    MockWebServer receiver;

    abstract StoreLocation freshLocation() throws Exception;

    @BeforeEach
    void startReceiver() throws Exception {
        receiver = new MockWebServer();
        receiver.start();
    }

    @AfterEach
    void stopReceiver() throws Exception {
        receiver.close();
        http.dispatcher().executorService().shutdown();
        http.connectionPool().evictAll();
    }

    Rig rig(String deadlineFields) throws Exception {
        return rig(freshLocation(), deadlineFields);
    }

    Rig rig(StoreLocation location, String deadlineFields) throws Exception {
        List<Tool> tools = List.of(new LedgerTool(folder.resolve("ledger.txt")));
        Store store = Store.open(location);
        ServiceRig.saveAgents(store, tools, LedgerTool.scripts());
        ServiceRig.operators(store, "olga");
        if (store.users().find("ada").isEmpty()) {
            store.users().add("ada", Set.of(Role.ADMIN), Actor.of("test-setup"));
        }
        DecisionDeadlines deadlines = DecisionDeadlines.read(Json.mapper().readTree(deadlineFields));
        for (String agent : LedgerTool.scripts().keySet()) {
            StoredAgentConfiguration stored = store.configurations().findAgent(agent).orElseThrow();
            store.configurations().saveAgent(new StoredAgentConfiguration(stored.name(), stored.systemPrompt(),
                    stored.modelName(), stored.toolGroups(), stored.allowedTools(), stored.workspace(),
                    stored.toolCallPolicies(), stored.maxRounds(), stored.fourEyes(), deadlines));
        }
        return new Rig(store, DefaultRunService.overStore(store, ToolRegistry.of(tools.toArray(Tool[]::new)),
                new NetworkntSchemaValidator(),
                ScriptedChatModel.byModel(LedgerTool.scripts()), InvocationRules.none(), clock,
                IdGenerator.random(), Locale.ENGLISH), new DefaultWebhookService(store.webhooks(), store.users(),
                clock, new WebhookDeliveries(store.webhooks(), delivery -> {
                    throw new AssertionError("the tests deliver through their own policy");
                }, clock, QUICK)), this);
    }

    record Rig(Store store, DefaultRunService service, DefaultWebhookService webhooks, WebhookSuite suite)
            implements AutoCloseable {
        String startLedger() {
            return service.start(OLGA, LedgerTool.ONE_PAUSE, "Record the entry", false).runId();
        }

        void approve(String runId) {
            String digest = service.card(OLGA, runId).orElseThrow().digest();
            assertThat(service.decide(OLGA, runId, digest, List.of(Decision.CallVerdict.approve(0))))
                    .isInstanceOf(DecisionResult.Done.class);
        }

        WebhookDeliveries deliveries(WebhookDeliveries.Policy policy, Map<String, String> environment) {
            return new WebhookDeliveries(store.webhooks(), new HttpWebhookSender(() -> suite.http,
                    environment::get), suite.clock, policy);
        }

        int deliver() {
            return deliveries(QUICK, Map.of("HOOK_SECRET", SECRET)).deliverDue();
        }

        @Override
        public void close() {
            store.close();
        }
    }

    String hookUrl() {
        return receiver.url("/hooks/countersign").toString();
    }

    RecordedRequest received() throws InterruptedException {
        RecordedRequest request = receiver.takeRequest(5, TimeUnit.SECONDS);
        assertThat(request).as("a request the receiver got").isNotNull();
        return request;
    }

    static String hmac(byte[] body) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return "sha256=" + HexFormat.of().formatHex(mac.doFinal(body));
    }

    static MockResponse ok() {
        return new MockResponse.Builder().code(204).build();
    }

    @Test
    void aPauseAndItsDecisionArriveAsSignedCloudEventsWithoutArguments() throws Exception {
        try (Rig rig = rig("{\"decisionDeadline\": \"30m\"}")) {
            rig.webhooks().add(ADA, hookUrl(), "waiting,decided", "env:HOOK_SECRET", false);
            String run = rig.startLedger();
            rig.approve(run);
            receiver.enqueue(ok());
            receiver.enqueue(ok());
            assertThat(rig.deliver()).isEqualTo(2);

            List<CloudEvent> events = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                RecordedRequest request = received();
                byte[] body = request.getBody().toByteArray();
                assertThat(request.getHeaders().get("Countersign-Signature")).isEqualTo(hmac(body));
                assertThat(request.getHeaders().get("Content-Type")).startsWith("application/cloudevents+json");
                String text = new String(body, StandardCharsets.UTF_8);
                // the ledger call's argument, the model's words and the tool's result never leave
                assertThat(text).doesNotContain("only").doesNotContain("Recording").doesNotContain("Recorded")
                        .doesNotContain(SECRET);
                CloudEvent event = new JsonFormat().deserialize(body);
                assertThat(request.getHeaders().get("Countersign-Event-Id")).isEqualTo(event.getId());
                events.add(event);
            }
            CloudEvent waiting = events.get(0);
            assertThat(waiting.getSpecVersion().toString()).isEqualTo("1.0");
            assertThat(waiting.getType()).isEqualTo("io.countersign.card.waiting");
            assertThat(waiting.getSource().toString()).isEqualTo("urn:countersign:runs");
            assertThat(waiting.getSubject()).isEqualTo(run);
            assertThat(waiting.getTime().toInstant()).isEqualTo(START);
            JsonNode data = Json.mapper().readTree(waiting.getData().toBytes());
            assertThat(data.path("agent").asText()).isEqualTo(LedgerTool.ONE_PAUSE);
            assertThat(data.path("startedBy").asText()).isEqualTo("olga");
            assertThat(data.path("tools").toString()).isEqualTo("[\"" + LedgerTool.NAME + "\"]");
            assertThat(data.path("waitingFor").asText()).isEqualTo("approval");
            assertThat(data.path("deadline").asText()).isEqualTo(START.plus(Duration.ofMinutes(30)).toString());

            CloudEvent decided = events.get(1);
            assertThat(decided.getType()).isEqualTo("io.countersign.card.decided");
            assertThat(decided.getId()).isNotEqualTo(waiting.getId());
            JsonNode decision = Json.mapper().readTree(decided.getData().toBytes());
            assertThat(decision.path("decidedBy").asText()).isEqualTo("olga");
            assertThat(decision.path("decision").asText()).isEqualTo("approved 1, denied 0");

            assertThat(rig.deliver()).as("nothing is sent twice").isZero();
            assertThat(rig.webhooks().list(ADA)).singleElement().satisfies(status -> {
                assertThat(status.lastDelivery()).isEqualTo("delivered (204)");
                assertThat(status.pending()).isZero();
            });
        }
    }

    @Test
    void anEscalationAndAnExpiryArriveWithTheirFallback() throws Exception {
        try (Rig rig = rig("{\"decisionDeadline\": \"1h\", \"onDeadline\": \"escalate\"}")) {
            rig.webhooks().add(ADA, hookUrl(), "escalated,expired", "env:HOOK_SECRET", false);
            String run = rig.startLedger();
            clock.advance(Duration.ofHours(1));
            rig.service().applyDeadlines();
            clock.advance(Duration.ofHours(1));
            rig.service().applyDeadlines();
            receiver.enqueue(ok());
            receiver.enqueue(ok());
            assertThat(rig.deliver()).isEqualTo(2);
            CloudEvent escalated = new JsonFormat().deserialize(received().getBody().toByteArray());
            CloudEvent expired = new JsonFormat().deserialize(received().getBody().toByteArray());
            assertThat(escalated.getType()).isEqualTo("io.countersign.card.escalated");
            assertThat(Json.mapper().readTree(escalated.getData().toBytes()).path("escalatedTo").asText())
                    .isEqualTo("admin");
            assertThat(Json.mapper().readTree(escalated.getData().toBytes()).path("deadline").asText())
                    .isEqualTo(START.plus(Duration.ofHours(2)).toString());
            assertThat(expired.getType()).isEqualTo("io.countersign.card.expired");
            assertThat(expired.getSubject()).isEqualTo(run);
            assertThat(Json.mapper().readTree(expired.getData().toBytes()).path("fallback").asText())
                    .isEqualTo("deny");
        }
    }

    @Test
    void eachHookGetsOnlyItsEventsAndASlackHookGetsText() throws Exception {
        try (Rig rig = rig("{}")) {
            rig.webhooks().add(ADA, hookUrl(), "decided", "env:HOOK_SECRET", true);
            String run = rig.startLedger();
            rig.approve(run);
            receiver.enqueue(ok());
            assertThat(rig.deliver()).isEqualTo(1);
            RecordedRequest request = received();
            JsonNode body = Json.mapper().readTree(request.getBody().utf8());
            assertThat(body.path("text").asText()).isEqualTo("Countersign: " + LedgerTool.ONE_PAUSE + " run " + run
                    + " (" + LedgerTool.NAME + ") was decided by olga: approved 1, denied 0");
            assertThat(request.getHeaders().get("Countersign-Signature"))
                    .isEqualTo(hmac(request.getBody().toByteArray()));
        }
    }

    @Test
    void aFailingReceiverGetsTheSameEventAgainAfterBackoffAndRetryAfter() throws Exception {
        try (Rig rig = rig("{}")) {
            rig.webhooks().add(ADA, hookUrl(), "waiting", "env:HOOK_SECRET", false);
            rig.startLedger();
            receiver.enqueue(new MockResponse.Builder().code(500).build());
            receiver.enqueue(new MockResponse.Builder().code(429).addHeader("Retry-After", "7").build());
            receiver.enqueue(ok());

            assertThat(rig.deliver()).isEqualTo(1);
            RecordedRequest first = received();
            assertThat(rig.webhooks().list(ADA)).singleElement().extracting(HookStatus::lastDelivery)
                    .isEqualTo("failed (500): the receiver answered 500");
            clock.advance(Duration.ofSeconds(9));
            assertThat(rig.deliver()).as("the first retry waits 10 s").isZero();
            clock.advance(Duration.ofSeconds(1));
            assertThat(rig.deliver()).isEqualTo(1);
            RecordedRequest second = received();
            clock.advance(Duration.ofSeconds(6));
            assertThat(rig.deliver()).as("the receiver asked for 7 s, not the backoff's 20 s").isZero();
            clock.advance(Duration.ofSeconds(1));
            assertThat(rig.deliver()).isEqualTo(1);
            RecordedRequest third = received();

            assertThat(List.of(second, third)).allSatisfy(again -> {
                assertThat(again.getHeaders().get("Countersign-Event-Id"))
                        .isEqualTo(first.getHeaders().get("Countersign-Event-Id"));
                assertThat(again.getBody()).isEqualTo(first.getBody());
            });
            assertThat(rig.webhooks().list(ADA)).singleElement().satisfies(status -> {
                assertThat(status.lastDelivery()).isEqualTo("delivered (204)");
                assertThat(status.pending()).isZero();
            });
            clock.advance(Duration.ofHours(1));
            assertThat(rig.deliver()).isZero();
        }
    }

    @Test
    void anEventIsGivenUpOnAfterTheLastAttempt() throws Exception {
        try (Rig rig = rig("{}")) {
            rig.webhooks().add(ADA, hookUrl(), "waiting", "env:HOOK_SECRET", false);
            rig.startLedger();
            WebhookDeliveries twice = rig.deliveries(new WebhookDeliveries.Policy(new RetryPolicy(
                    Duration.ofSeconds(1), 2, Duration.ofSeconds(1), 2, 0), Duration.ofMinutes(1), 10),
                    Map.of("HOOK_SECRET", SECRET));
            receiver.enqueue(new MockResponse.Builder().code(503).build());
            receiver.enqueue(new MockResponse.Builder().code(503).build());
            assertThat(twice.deliverDue()).isEqualTo(1);
            clock.advance(Duration.ofSeconds(1));
            assertThat(twice.deliverDue()).isEqualTo(1);
            clock.advance(Duration.ofHours(1));
            assertThat(twice.deliverDue()).isZero();
            assertThat(rig.webhooks().list(ADA)).singleElement().satisfies(status -> {
                assertThat(status.failed()).isEqualTo(1);
                assertThat(status.pending()).isZero();
                assertThat(status.lastError()).contains("answered 503").contains("given up after 2 attempts");
            });
        }
    }

    @Test
    void aSecretThatCannotBeReadIsNamedAndTheEventWaits() throws Exception {
        try (Rig rig = rig("{}")) {
            rig.webhooks().add(ADA, hookUrl(), "waiting", "env:HOOK_SECRET", false);
            rig.startLedger();
            assertThat(rig.deliveries(QUICK, Map.of()).deliverDue()).isEqualTo(1);
            assertThat(receiver.getRequestCount()).isZero();
            assertThat(rig.webhooks().list(ADA)).singleElement().satisfies(status -> {
                assertThat(status.lastDelivery()).isEqualTo("failed: the secret's environment variable HOOK_SECRET"
                        + " is not set in this process");
                assertThat(status.pending()).isEqualTo(1);
            });
            clock.advance(Duration.ofSeconds(10));
            receiver.enqueue(ok());
            assertThat(rig.deliver()).isEqualTo(1);
            assertThat(received().getHeaders().get("Countersign-Signature")).startsWith("sha256=");
        }
    }

    @Test
    void twoProcessesClaimingAtOnceTakeEachEventOnce() throws Exception {
        StoreLocation location = freshLocation();
        try (Rig rig = rig(location, "{}"); Store other = Store.open(location)) {
            rig.webhooks().add(ADA, hookUrl(), "waiting", "env:HOOK_SECRET", false);
            rig.webhooks().add(ADA, hookUrl(), "waiting", "env:HOOK_SECRET", true);
            for (int i = 0; i < 10; i++) {
                rig.startLedger();
            }
            CyclicBarrier together = new CyclicBarrier(2);
            CompletableFuture<List<Delivery>> here = CompletableFuture.supplyAsync(() -> {
                await(together);
                return rig.store().webhooks().claim(clock.instant(), 50, Duration.ofMinutes(1));
            });
            CompletableFuture<List<Delivery>> there = CompletableFuture.supplyAsync(() -> {
                await(together);
                return other.webhooks().claim(clock.instant(), 50, Duration.ofMinutes(1));
            });
            List<Long> ids = new ArrayList<>();
            here.get(30, TimeUnit.SECONDS).forEach(delivery -> ids.add(delivery.id()));
            there.get(30, TimeUnit.SECONDS).forEach(delivery -> ids.add(delivery.id()));
            assertThat(ids).hasSize(20).doesNotHaveDuplicates();
            assertThat(rig.store().webhooks().claim(clock.instant(), 50, Duration.ofMinutes(1))).isEmpty();
        }
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aRoundWithNothingDueCommitsNothing() throws Exception {
        try (Rig rig = rig("{}")) {
            rig.webhooks().add(ADA, hookUrl(), "decided", "env:HOOK_SECRET", false);
            rig.startLedger();
            var before = rig.store().commits();
            assertThat(rig.deliver()).isZero();
            assertThat(rig.store().commits()).isEqualTo(before);
        }
    }

    @Test
    void removingAHookDropsWhatWasQueuedForIt() throws Exception {
        try (Rig rig = rig("{}")) {
            String id = rig.webhooks().add(ADA, hookUrl(), "waiting", "env:HOOK_SECRET", false).id();
            rig.startLedger();
            assertThat(rig.webhooks().list(ADA)).singleElement().extracting(HookStatus::pending).isEqualTo(1L);
            assertThat(rig.webhooks().remove(ADA, id)).isTrue();
            assertThat(rig.webhooks().remove(ADA, id)).isFalse();
            assertThat(rig.webhooks().list(ADA)).isEmpty();
            assertThat(rig.deliver()).isZero();
        }
    }

    @Test
    void badInputIsRefusedNamingWhatIsWrongAndNothingIsAdded() throws Exception {
        try (Rig rig = rig("{}")) {
            DefaultWebhookService hooks = rig.webhooks();
            assertThatThrownBy(() -> hooks.add(ADA, "ftp://example.org/x", "waiting", "env:S", false))
                    .hasMessage("the webhook URL must start with https:// or http://, got \"ftp:\"");
            assertThatThrownBy(() -> hooks.add(ADA, "https://user:pw@example.org/x", "waiting", "env:S", false))
                    .hasMessageContaining("must not hold a user name or password");
            assertThatThrownBy(() -> hooks.add(ADA, hookUrl(), "waiting,approved", "env:S", false))
                    .hasMessage("unknown webhook event \"approved\"; the events are waiting, decided, expired,"
                            + " escalated");
            assertThatThrownBy(() -> hooks.add(ADA, hookUrl(), "waiting", "hunter2", false))
                    .hasMessageContaining("env:NAME or file:PATH, never as the value itself")
                    .message().doesNotContain("hunter2");
            assertThatThrownBy(() -> hooks.add(ADA, hookUrl(), "waiting", "file:relative/secret", false))
                    .hasMessageContaining("must be an absolute path");
            assertThatThrownBy(() -> hooks.add(OLGA, hookUrl(), "waiting", "env:S", false))
                    .isInstanceOf(NotPermittedException.class).hasMessageContaining("change webhooks");
            assertThat(hooks.list(ADA)).isEmpty();
        }
    }
}
