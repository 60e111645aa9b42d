package io.countersign.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.call.ToolExecutionContext;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.run.RunRequest;
import io.countersign.engine.run.ToolLoop;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.tools.NetworkntSchemaValidator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import okhttp3.OkHttpClient;

/**
 * A tool loop whose models are reached over real HTTP through {@link ChatModels#router()}, with a fixed clock and
 * counted event ids so that two runs of one conversation record identical events.
 */
final class HttpLoopHarness {
    /** Quick to give up: a failing provider fails a test in milliseconds, not seconds. */
    static final HttpModelOptions FAST_RETRIES = new HttpModelOptions(Duration.ofSeconds(2), Duration.ofSeconds(2),
            Duration.ofSeconds(5), 2, Duration.ofMillis(1));
    static final Instant NOW = Instant.parse("2026-03-02T09:30:00Z");

    private static final OkHttpClient HTTP = new OkHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper();

    final List<GovernanceEvent> events = Collections.synchronizedList(new ArrayList<>());
    final Actor maria = Actor.of("maria", Role.OPERATOR);
    final Actor jonas = Actor.of("jonas", Role.OPERATOR);
    final ToolRegistry registry;
    private final AtomicInteger eventCount = new AtomicInteger();

    HttpLoopHarness(Tool... tools) {
        this.registry = ToolRegistry.of(tools);
    }

    /** A loop builder that talks to each round's model configuration at its endpoint and records every event. */
    ToolLoop.Builder builder() {
        return ToolLoop.builder(registry, ChatModels.openAiCompatible(() -> HTTP, FAST_RETRIES).router())
                .schemas(new NetworkntSchemaValidator())
                .events(events::add)
                .clock(Clock.fixed(NOW, ZoneOffset.UTC))
                .ids(() -> "event-" + eventCount.incrementAndGet());
    }

    RunRequest request(AgentConfiguration agent, String prompt) {
        return RunRequest.of(agent, ToolExecutionContext.of(maria, "run-1", Locale.ENGLISH), prompt);
    }

    List<GovernanceEvent> events(EventType type) {
        return events.stream().filter(event -> event.type() == type).toList();
    }

    /** The next request the server received; fails when none came. */
    static RecordedRequest next(MockWebServer server) {
        try {
            RecordedRequest request = server.takeRequest(1, TimeUnit.SECONDS);
            if (request == null) {
                throw new AssertionError("the server at " + server.url("/") + " received no further request");
            }
            return request;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for a request", e);
        }
    }

    /** The JSON body of the next request the server received. */
    static JsonNode nextBody(MockWebServer server) {
        try {
            return JSON.readTree(next(server).getBody().utf8());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The names of the tools a request body offers, in order. */
    static List<String> offeredTools(JsonNode body) {
        List<String> names = new ArrayList<>();
        body.path("tools").forEach(tool -> names.add(tool.path("function").path("name").asText()));
        return names;
    }
}
