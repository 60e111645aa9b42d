package io.countersign.cli;

import static org.assertj.core.api.Assertions.assertThat;
import com.fasterxml.jackson.databind.JsonNode;
import io.countersign.engine.Json;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.store.StoreLocation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code webhooks}, {@code webhooks add}, {@code remove} and {@code deliver}, each in a process of its own. */
class WebhookCommandsTest {
    private static final String SECRET = "the-receivers-shared-secret";

    @TempDir
    Path folder;
    CommandProcess countersign;
    MockWebServer receiver;

    @BeforeEach
    void demoStoreAndReceiver() throws Exception {
        Path file = folder.resolve("countersign.db");
        countersign = new CommandProcess(folder, file.toString());
        try (CountersignRuntime runtime = CountersignRuntime.open(new StoreLocation.SqliteFile(file))) {
            runtime.localUser();
            runtime.ensureDemo(folder);
        }
        receiver = new MockWebServer();
        receiver.start();
    }

    @AfterEach
    void stopReceiver() {
        receiver.close();
    }

    private static void assertOneLineError(CommandProcess.Result result, int exitCode, String contains) {
        assertThat(result.exitCode()).as(result.err()).isEqualTo(exitCode);
        assertThat(result.err().lines().toList()).as("stderr").singleElement().asString().contains(contains);
        assertThat(result.out()).isEmpty();
    }

    @Test
    void aHookAddedFromAScriptReceivesTheNextCardSignedAndIsListedWithItsDelivery() throws Exception {
        CommandProcess.Result added = countersign.run("webhooks", "add", receiver.url("/hook").toString(),
                "--events", "waiting,decided", "--secret", "env:HOOK_SECRET");
        assertThat(added.exitCode()).as(added.err()).isZero();
        String id = added.json().path("id").asText();
        assertThat(id).startsWith("wh-");
        assertThat(added.json().path("events").asText()).isEqualTo("waiting,decided");
        assertThat(added.json().path("secret").asText()).isEqualTo("env:HOOK_SECRET");

        CommandProcess.Result started = countersign.runHere("run", "--agent", "web-research", "--prompt",
                "Check the changelog");
        assertThat(started.exitCode()).as(started.err()).isZero();
        String runId = started.json().path("runId").asText();

        receiver.enqueue(new MockResponse.Builder().code(200).build());
        CommandProcess.Result delivered = countersign.start(Map.of("HOOK_SECRET", SECRET), "webhooks", "deliver")
                .await();
        assertThat(delivered.exitCode()).as(delivered.err()).isZero();
        assertThat(delivered.json().path("attempts").asInt()).isEqualTo(1);
        RecordedRequest request = receiver.takeRequest(5, TimeUnit.SECONDS);
        assertThat(request).isNotNull();
        byte[] body = request.getBody().toByteArray();
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        assertThat(request.getHeaders().get("Countersign-Signature"))
                .isEqualTo("sha256=" + HexFormat.of().formatHex(mac.doFinal(body)));
        JsonNode event = Json.mapper().readTree(body);
        assertThat(event.path("type").asText()).isEqualTo("io.countersign.card.waiting");
        assertThat(event.path("subject").asText()).isEqualTo(runId);
        assertThat(event.path("data").path("agent").asText()).isEqualTo("web-research");
        assertThat(new String(body, StandardCharsets.UTF_8)).doesNotContain("changelog");

        CommandProcess.Result listed = countersign.run("webhooks");
        assertThat(listed.exitCode()).as(listed.err()).isZero();
        assertThat(listed.json()).singleElement().satisfies(hook -> {
            assertThat(hook.path("id").asText()).isEqualTo(id);
            assertThat(hook.path("lastDelivery").asText()).isEqualTo("delivered (200)");
            assertThat(hook.path("pending").asInt()).isZero();
            assertThat(hook.path("body").asText()).isEqualTo("cloudevents");
        });
        CommandProcess.Result table = countersign.run("--format", "table", "webhooks", "list");
        assertThat(table.out()).contains(id).contains("delivered (200)");

        CommandProcess.Result removed = countersign.run("webhooks", "remove", id);
        assertThat(removed.exitCode()).as(removed.err()).isZero();
        assertThat(countersign.run("webhooks").json()).isEmpty();
    }

    @Test
    void badInputEndsWithOneLineNamingTheCause() {
        assertOneLineError(countersign.run("webhooks", "add", "https://hooks.example.org/x", "--events",
                "waiting,approved", "--secret", "env:HOOK_SECRET"), Cli.BAD_USAGE,
                "unknown webhook event \"approved\"");
        assertOneLineError(countersign.run("webhooks", "add", "https://hooks.example.org/x", "--events",
                "waiting", "--secret", "hunter2"), Cli.BAD_USAGE, "env:NAME or file:PATH, never as the value");
        assertOneLineError(countersign.run("webhooks", "add", "hooks.example.org/x", "--events",
                "waiting", "--secret", "env:HOOK_SECRET"), Cli.BAD_USAGE, "must start with https:// or http://");
        assertOneLineError(countersign.run("webhooks", "remove", "wh-none"), Cli.REFUSED,
                "no webhook has the id \"wh-none\"");
        assertOneLineError(countersign.runAs("sam", "webhooks"), Cli.REFUSED, "view webhooks");
    }
}
