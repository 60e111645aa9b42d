package io.countersign.model;

import static io.countersign.model.Fixtures.answer;
import static io.countersign.model.Fixtures.ask;
import static io.countersign.model.Fixtures.configuration;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.port.ModelException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.SocketEffect;
import okhttp3.OkHttpClient;
import okio.Buffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Feeds the client answers broken the ways real ones break: cut short, bytes flipped, values of the wrong type,
 * fields missing, arguments cut, random JSON, error statuses with garbage bodies, connections dropped mid-answer.
 * Each must end as a turn or as a {@link ModelException} with a reason and a message, in bounded time.
 */
class ChatCompletionsFuzzTest {
    private static final int CASES = 1_000;
    private static final long SEED = 0x5eed_c0de_2025L;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final List<String> VALID = List.of("openai-plain", "openai-tool-call", "openai-parallel-tool-calls",
            "ollama-plain", "ollama-tool-call", "ollama-parallel-tool-calls");
    private static final List<String> KEYS = List.of("choices", "message", "content", "tool_calls", "function",
            "name", "arguments", "id", "type", "usage", "prompt_tokens", "completion_tokens", "error", "refusal");
    private static final Set<String> REASONS = Set.of("malformed_response", "provider_rejected",
            "provider_unavailable", "timeout");
    private static final HttpModelOptions OPTIONS = new HttpModelOptions(Duration.ofSeconds(1),
            Duration.ofSeconds(1), Duration.ofSeconds(2), 0, Duration.ofMillis(10));
    private static final Duration CASE_BOUND = Duration.ofSeconds(3);

    private final Random random = new Random(SEED);

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void brokenAnswersEndAsATurnOrAModelExceptionWithAReason() throws Exception {
        Map<String, Integer> outcomes = new TreeMap<>();
        try (MockWebServer server = Fixtures.startServer()) {
            ModelConfiguration configuration = configuration(server);
            OpenAiCompatibleChatModel model = new OpenAiCompatibleChatModel(configuration, new OkHttpClient(),
                    OPTIONS, name -> null, wait -> fail("no retries are configured"));
            for (int i = 0; i < CASES; i++) {
                Case fuzzCase = nextCase(i);
                server.enqueue(fuzzCase.response());
                long started = System.nanoTime();
                try {
                    model.complete(ask(configuration, "What is left to do?"));
                    outcomes.merge("turn", 1, Integer::sum);
                } catch (ModelException e) {
                    assertThat(e.reasonCode()).as(fuzzCase.description()).isIn(REASONS);
                    assertThat(e.getMessage()).as(fuzzCase.description()).isNotBlank();
                    outcomes.merge(e.reasonCode(), 1, Integer::sum);
                } catch (RuntimeException e) {
                    throw new AssertionError(fuzzCase.description() + " escaped as " + e, e);
                }
                assertThat(Duration.ofNanos(System.nanoTime() - started)).as(fuzzCase.description())
                        .isLessThan(CASE_BOUND);
            }
        }
        assertThat(outcomes.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(CASES);
        // The mutations must really break answers, and some must survive them: both kinds of outcome occur.
        assertThat(outcomes.getOrDefault("malformed_response", 0)).isGreaterThan(CASES / 3);
        assertThat(outcomes).containsKeys("turn", "provider_rejected", "provider_unavailable");
    }

    private record Case(String description, MockResponse response) {
    }

    private Case nextCase(int index) throws IOException {
        String seed = VALID.get(random.nextInt(VALID.size()));
        byte[] valid = answer(seed).getBytes(StandardCharsets.UTF_8);
        int kind = random.nextInt(100);
        String what = "case " + index + " (from " + seed + "): ";
        if (kind < 8) {
            int status = List.of(400, 401, 404, 422, 429, 500, 502, 503).get(random.nextInt(8));
            return new Case(what + "HTTP " + status, json(truncate(valid)).newBuilder().code(status).build());
        }
        if (kind < 12) {
            return new Case(what + "connection dropped mid-answer", json(valid).newBuilder()
                    .onResponseBody(new SocketEffect.CloseSocket()).build());
        }
        if (kind < 30) {
            return new Case(what + "truncated", json(truncate(valid)));
        }
        if (kind < 48) {
            return new Case(what + "bytes flipped", json(flip(valid)));
        }
        if (kind < 70) {
            return new Case(what + "a value of the wrong type", json(mutate(valid, this::replaceOneValue)));
        }
        if (kind < 80) {
            return new Case(what + "a field missing", json(mutate(valid, this::removeOneField)));
        }
        if (kind < 90) {
            return new Case(what + "arguments cut short", json(mutate(valid, this::cutArguments)));
        }
        return new Case(what + "random JSON", json(JSON.writeValueAsBytes(randomValue(4))));
    }

    private static MockResponse json(byte[] body) {
        return new MockResponse.Builder().addHeader("Content-Type", "application/json")
                .body(new Buffer().write(body)).build();
    }

    private byte[] truncate(byte[] body) {
        byte[] cut = new byte[random.nextInt(body.length)];
        System.arraycopy(body, 0, cut, 0, cut.length);
        return cut;
    }

    private byte[] flip(byte[] body) {
        byte[] flipped = body.clone();
        for (int n = 1 + random.nextInt(8); n > 0; n--) {
            flipped[random.nextInt(flipped.length)] = (byte) random.nextInt(256);
        }
        return flipped;
    }

    private byte[] mutate(byte[] body, Consumer<JsonNode> mutation) throws IOException {
        JsonNode tree = JSON.readTree(body);
        mutation.accept(tree);
        return JSON.writeValueAsBytes(tree);
    }

    /** Every place a value sits: its container and its key or index. */
    private record Slot(JsonNode container, String key, int index) {
        void set(JsonNode value) {
            if (container instanceof ObjectNode object) {
                object.set(key, value);
            } else {
                ((ArrayNode) container).set(index, value);
            }
        }
    }

    private static void collect(JsonNode node, List<Slot> slots) {
        if (node.isObject()) {
            node.fieldNames().forEachRemaining(key -> {
                slots.add(new Slot(node, key, -1));
                collect(node.get(key), slots);
            });
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                slots.add(new Slot(node, null, i));
                collect(node.get(i), slots);
            }
        }
    }

    private void replaceOneValue(JsonNode tree) {
        List<Slot> slots = new ArrayList<>();
        collect(tree, slots);
        slots.get(random.nextInt(slots.size())).set(randomValue(2));
    }

    private void removeOneField(JsonNode tree) {
        List<Slot> slots = new ArrayList<>();
        collect(tree, slots);
        List<Slot> fields = slots.stream().filter(slot -> slot.key() != null).toList();
        Slot chosen = fields.get(random.nextInt(fields.size()));
        ((ObjectNode) chosen.container()).remove(chosen.key());
    }

    /** Cuts a tool call's arguments string, or the content where the answer has no tool calls. */
    private void cutArguments(JsonNode tree) {
        List<Slot> slots = new ArrayList<>();
        collect(tree, slots);
        List<Slot> texts = slots.stream()
                .filter(slot -> "arguments".equals(slot.key()) || "content".equals(slot.key()))
                .filter(slot -> slot.container().get(slot.key()).isTextual())
                .toList();
        Slot chosen = texts.get(random.nextInt(texts.size()));
        String text = chosen.container().get(chosen.key()).asText();
        chosen.set(NODES.textNode(text.substring(0, random.nextInt(text.length() + 1))));
    }

    private JsonNode randomValue(int depth) {
        int kind = random.nextInt(depth > 0 ? 9 : 6);
        return switch (kind) {
            case 0 -> NODES.nullNode();
            case 1 -> NODES.booleanNode(random.nextBoolean());
            case 2 -> NODES.numberNode(random.nextInt(2001) - 1000);
            case 3 -> NODES.numberNode(random.nextDouble() * 1e20 - 5e19);
            case 4 -> NODES.textNode(randomText());
            case 5 -> NODES.textNode("{\"path\":" + random.nextInt(10));
            case 6, 7 -> {
                ObjectNode object = NODES.objectNode();
                for (int n = random.nextInt(4); n > 0; n--) {
                    object.set(KEYS.get(random.nextInt(KEYS.size())), randomValue(depth - 1));
                }
                yield object;
            }
            default -> {
                ArrayNode array = NODES.arrayNode();
                for (int n = random.nextInt(4); n > 0; n--) {
                    array.add(randomValue(depth - 1));
                }
                yield array;
            }
        };
    }

    private String randomText() {
        StringBuilder text = new StringBuilder();
        for (int n = random.nextInt(12); n > 0; n--) {
            text.append((char) (random.nextBoolean() ? 'a' + random.nextInt(26) : random.nextInt(0x3000)));
        }
        return text.toString();
    }
}
