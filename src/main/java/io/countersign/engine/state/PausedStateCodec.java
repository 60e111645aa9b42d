package io.countersign.engine.state;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import io.countersign.engine.Actor;
import io.countersign.engine.Json;
import io.countersign.engine.Names;
import io.countersign.engine.Role;
import io.countersign.engine.chat.TrustZone;
import io.countersign.engine.call.ToolInvocationHistory;
import io.countersign.engine.call.ToolInvocationObservation;
import io.countersign.engine.call.ToolInvocationTarget;
import io.countersign.engine.chat.ChatMessage;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.chat.TokenUsage;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.tool.InputField;
import io.countersign.engine.tool.ToolPreview;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * JSON for paused states, lossless both ways. Reading is strict: a state that is not JSON, misses a field, has
 * a field of the wrong type, an unknown status, or calls that do not fit its transcript is refused with a
 * {@link RunStateException} that names the field. The invocation history is the exception: one that cannot be
 * proven whole loads as incomplete, keeping the observations it can read.
 */
public final class PausedStateCodec {
    static final int FORMAT = 1;
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    /** About the cards a console shows and decides at once. */
    private static final AtomicReferenceArray<Digested> DIGESTED = new AtomicReferenceArray<>(16);
    private static final AtomicInteger NEXT_SLOT = new AtomicInteger();

    private PausedStateCodec() {
    }

    public static String toJson(PausedState state) {
        return toJson(state, transcriptToTree(state.transcript()), historyToTree(state.history()));
    }

    /**
     * As {@link #toJson(PausedState)}, with the state's transcript and history given as the JSON text that
     * {@link #transcriptToTree} and {@link #historyToTree} make of them: a store that keeps them in columns of their
     * own as well writes each once and copies its text into the state.
     */
    public static String toJson(PausedState state, String transcriptJson, String historyJson) {
        return toJson(state, NODES.rawValueNode(new RawValue(transcriptJson)),
                NODES.rawValueNode(new RawValue(historyJson)));
    }

    private static String toJson(PausedState state, JsonNode transcript, JsonNode history) {
        ObjectNode root = NODES.objectNode();
        root.put("format", FORMAT);
        root.put("runId", state.runId());
        root.put("status", state.status().code());
        root.put("agentConfiguration", state.agentConfiguration());
        root.set("model", modelToTree(state.model()));
        root.set("transcript", transcript);
        ArrayNode calls = root.putArray("calls");
        state.calls().forEach(call -> calls.add(callToTree(call, true)));
        ObjectNode counters = root.putObject("counters");
        counters.put("iterations", state.counters().iterations());
        counters.put("promptTokens", state.counters().usage().promptTokens());
        counters.put("completionTokens", state.counters().usage().completionTokens());
        ArrayNode offered = root.putArray("offeredTools");
        state.offeredTools().forEach(offered::add);
        ObjectNode options = root.putObject("options");
        options.put("unattended", state.options().unattended());
        options.put("toolChoice", state.options().toolChoice());
        ObjectNode scope = options.putObject("scope");
        state.options().scope().forEach(scope::put);
        root.set("inputFields", fieldsToTree(state.inputFields()));
        root.set("history", history);
        root.set("initiatingActor", actorToTree(state.initiatingActor()));
        root.set("actingUser", actorToTree(state.actingUser()));
        root.put("locale", state.locale().toLanguageTag());
        return root.toString();
    }

    /**
     * Reads a state written by {@link #toJson}.
     *
     * @throws RunStateException when the text is not a whole, consistent paused state; the message names the
     *                           damaged field
     */
    public static PausedState fromJson(String json) {
        try {
            return fromTree(Json.mapper().readTree(json));
        } catch (JsonProcessingException e) {
            throw notJson(e);
        }
    }

    /** Reads a state written by {@link #toJson}, as the UTF-8 bytes a store keeps it in; see {@link #fromJson}. */
    public static PausedState fromJson(byte[] utf8) {
        try {
            return fromTree(Json.mapper().readTree(utf8));
        } catch (JsonProcessingException e) {
            throw notJson(e);
        } catch (IOException e) {
            throw new UncheckedIOException("reading bytes in memory cannot fail", e);
        }
    }

    private static RunStateException notJson(JsonProcessingException e) {
        return new RunStateException("damaged paused state: not valid JSON (line "
                + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")");
    }

    private static PausedState fromTree(JsonNode root) {
        if (root == null || !root.isObject()) {
            throw new RunStateException("damaged paused state: expected a JSON object");
        }
        JsonFieldReader in = new JsonFieldReader(root, "");
        int format = in.integer("format");
        if (format != FORMAT) {
            throw new RunStateException("paused state has format " + format + ", this version reads format "
                    + FORMAT + (format > FORMAT ? "; it was written by a newer Countersign" : ""));
        }
        try {
            RunStatus status = in.parse("status", RunStatus::fromCode);
            JsonFieldReader counters = in.object("counters");
            JsonFieldReader options = in.object("options");
            Map<String, String> scope = new HashMap<>();
            JsonFieldReader scopeReader = options.object("scope");
            scopeReader.node().fieldNames().forEachRemaining(key -> scope.put(key, scopeReader.text(key)));
            return PausedState.builder()
                    .runId(in.text("runId"))
                    .status(status)
                    .agentConfiguration(in.text("agentConfiguration"))
                    .model(modelFromTree(in.object("model")))
                    .transcript(in.list("transcript", PausedStateCodec::messageFromTree))
                    .calls(in.list("calls", PausedStateCodec::callFromTree))
                    .counters(new RunCounters(counters.integer("iterations"), new TokenUsage(
                            counters.longValue("promptTokens"), counters.longValue("completionTokens"))))
                    .offeredTools(in.list("offeredTools", JsonFieldReader::textValue))
                    .options(new RunOptions(options.bool("unattended"), options.optionalText("toolChoice"), scope))
                    .inputFields(in.list("inputFields", PausedStateCodec::fieldFromTree))
                    .history(historyFromTree(root.get("history")))
                    .initiatingActor(actorFromTree(in.object("initiatingActor")))
                    .actingUser(actorFromTree(in.object("actingUser")))
                    .locale(Locale.forLanguageTag(in.text("locale")))
                    .build();
        } catch (IllegalArgumentException e) {
            throw new RunStateException("damaged paused state: " + e.getMessage(), e);
        }
    }

    /**
     * The SHA-256 of what a person is shown for a pause, in hexadecimal. A state is immutable, so its digest is
     * remembered for the last states digested: a decision digests the card it was shown again when it claims it,
     * and hashing a card costs tens of microseconds under the client compiler the launchers use.
     */
    static String digest(PausedState state) {
        for (int slot = 0; slot < DIGESTED.length(); slot++) {
            Digested remembered = DIGESTED.get(slot);
            if (remembered != null && remembered.state() == state) {
                return remembered.digest();
            }
        }
        String digest = computeDigest(state);
        DIGESTED.set(Math.floorMod(NEXT_SLOT.getAndIncrement(), DIGESTED.length()), new Digested(state, digest));
        return digest;
    }

    /** A state and its digest; the state compared by identity, as equal states have equal digests anyway. */
    private record Digested(PausedState state, String digest) {
    }

    private static String computeDigest(PausedState state) {
        ObjectNode card = NODES.objectNode();
        card.put("runId", state.runId());
        card.put("status", state.status().code());
        ArrayNode calls = card.putArray("calls");
        state.calls().forEach(call -> calls.add(callToTree(call, false)));
        card.set("inputFields", fieldsToTree(state.inputFields()));
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(sha.digest(card.toString().getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    /** A transcript as a JSON array, in the same form the paused state uses. */
    public static ArrayNode transcriptToTree(List<ChatMessage> transcript) {
        ArrayNode array = NODES.arrayNode();
        for (ChatMessage message : transcript) {
            ObjectNode node = array.addObject();
            node.put("role", message.role().name().toLowerCase(Locale.ROOT));
            node.put("content", message.content());
            if (!message.toolCalls().isEmpty()) {
                ArrayNode calls = node.putArray("toolCalls");
                message.toolCalls().forEach(call -> calls.add(toolCallToTree(call)));
            }
            if (message.toolCallId() != null) {
                node.put("toolCallId", message.toolCallId());
            }
        }
        return array;
    }

    /** Reads a transcript written by {@link #transcriptToTree}. */
    public static List<ChatMessage> transcriptFromTree(JsonNode array) {
        if (array == null || !array.isArray()) {
            throw new RunStateException("damaged transcript: expected a JSON array");
        }
        try {
            return new JsonFieldReader(NODES.objectNode().set("transcript", array), "").list("transcript",
                    PausedStateCodec::messageFromTree);
        } catch (IllegalArgumentException e) {
            throw new RunStateException("damaged transcript: " + e.getMessage(), e);
        }
    }

    /** A history as JSON, in the same form the paused state uses. */
    public static ObjectNode historyToTree(ToolInvocationHistory history) {
        ObjectNode node = NODES.objectNode();
        node.put("complete", history.complete());
        ArrayNode observations = node.putArray("observations");
        for (ToolInvocationObservation observation : history.observations()) {
            ObjectNode item = observations.addObject();
            item.put("tool", observation.toolName());
            item.put("outcome", observation.outcome().code());
            item.set("target", targetToTree(observation.target()));
        }
        return node;
    }

    /**
     * Reads a history; anything that cannot be proven whole (a missing or non-boolean flag, an entry of the
     * wrong shape, a blank or malformed tool name, an unknown outcome, a bad target) yields an incomplete history
     * of the entries that could be read, so a damaged history never passes for a complete one.
     */
    public static ToolInvocationHistory historyFromTree(JsonNode node) {
        if (node == null || !node.isObject()) {
            return ToolInvocationHistory.incomplete(List.of());
        }
        boolean whole = node.path("complete").isBoolean() && node.get("complete").asBoolean();
        List<ToolInvocationObservation> observations = new ArrayList<>();
        JsonNode items = node.get("observations");
        if (items == null || !items.isArray()) {
            return ToolInvocationHistory.incomplete(observations);
        }
        for (JsonNode item : items) {
            try {
                observations.add(observationFromTree(item));
            } catch (RuntimeException e) {
                whole = false;
            }
        }
        return new ToolInvocationHistory(observations, whole);
    }

    private static ToolInvocationObservation observationFromTree(JsonNode item) {
        Set<String> known = Set.of("tool", "outcome", "target");
        item.fieldNames().forEachRemaining(name -> {
            if (!known.contains(name)) {
                throw new IllegalArgumentException("unknown observation field " + name);
            }
        });
        JsonFieldReader in = new JsonFieldReader(item, "");
        String tool = in.text("tool");
        // A blank or malformed name cannot say which tool ran, so the history holding it cannot be proven whole.
        if (!Names.isRecordedToolName(tool)) {
            throw new IllegalArgumentException("observation of a tool named \"" + tool + "\", not a tool name");
        }
        JsonNode target = item.get("target");
        return new ToolInvocationObservation(tool, ToolInvocationObservation.Outcome.fromCode(in.text("outcome")),
                target == null || target.isNull() ? null : targetFromTree(new JsonFieldReader(target, "")));
    }

    private static ObjectNode callToTree(PendingCall call, boolean withStale) {
        ObjectNode node = NODES.objectNode();
        node.put("index", call.index());
        node.set("call", toolCallToTree(call.call()));
        node.put("disposition", call.disposition().name().toLowerCase(Locale.ROOT));
        if (call.preview() == null) {
            node.putNull("preview");
        } else {
            ArrayNode lines = node.putArray("preview");
            call.preview().lines().forEach(lines::add);
        }
        node.set("target", targetToTree(call.target()));
        if (call.refusal() == null) {
            node.putNull("refusal");
        } else {
            ObjectNode refusal = node.putObject("refusal");
            refusal.put("rule", call.refusal().ruleIdentifier());
            refusal.put("reason", call.refusal().reasonCode());
            refusal.put("explanation", call.refusal().explanation());
        }
        if (withStale) {
            node.put("stale", call.stale());
        }
        // only when a rule asked, so the states (and digests) of other cards read as before
        if (call.asked() != null) {
            ObjectNode asked = node.putObject("askedBy");
            asked.put("rule", call.asked().ruleIdentifier());
            asked.put("approvals", call.asked().approvals());
        }
        return node;
    }

    private static PendingCall callFromTree(JsonFieldReader in) {
        JsonNode refusal = in.node().get("refusal");
        PendingCall.Refusal parsedRefusal = null;
        if (refusal != null && !refusal.isNull()) {
            JsonFieldReader r = in.object("refusal");
            parsedRefusal = new PendingCall.Refusal(r.text("rule"), r.text("reason"), r.optionalText("explanation"));
        }
        JsonNode preview = in.node().get("preview");
        ToolPreview parsedPreview = preview == null || preview.isNull() ? null
                : new ToolPreview(in.list("preview", JsonFieldReader::textValue));
        JsonNode target = in.node().get("target");
        return new PendingCall(in.integer("index"), toolCallFromTree(in.object("call")),
                in.parse("disposition", code -> PendingCall.Disposition.valueOf(code.toUpperCase(Locale.ROOT))),
                parsedPreview,
                target == null || target.isNull() ? null : targetFromTree(in.object("target")),
                parsedRefusal, in.bool("stale"), askedFromTree(in));
    }

    private static PendingCall.Asked askedFromTree(JsonFieldReader in) {
        JsonNode asked = in.node().get("askedBy");
        if (asked == null || asked.isNull()) {
            return null;
        }
        JsonFieldReader r = in.object("askedBy");
        return new PendingCall.Asked(r.text("rule"), r.integer("approvals"));
    }

    private static ObjectNode toolCallToTree(ToolCall call) {
        ObjectNode node = NODES.objectNode();
        node.put("id", call.id());
        node.put("name", call.name());
        node.set("arguments", call.arguments());
        return node;
    }

    private static ToolCall toolCallFromTree(JsonFieldReader in) {
        return new ToolCall(in.text("id"), in.text("name"), (ObjectNode) in.object("arguments").node());
    }

    private static ChatMessage messageFromTree(JsonFieldReader in) {
        ChatMessage.Role role = in.parse("role", code -> ChatMessage.Role.valueOf(code.toUpperCase(Locale.ROOT)));
        List<ToolCall> calls = in.node().has("toolCalls") ? in.list("toolCalls", PausedStateCodec::toolCallFromTree)
                : List.of();
        return new ChatMessage(role, in.text("content"), calls, in.optionalText("toolCallId"));
    }

    private static ArrayNode fieldsToTree(List<InputField> fields) {
        ArrayNode array = NODES.arrayNode();
        for (InputField field : fields) {
            ObjectNode node = array.addObject();
            node.put("name", field.name());
            node.put("type", field.type().name().toLowerCase(Locale.ROOT));
            node.put("label", field.label());
            node.put("description", field.description());
            node.put("required", field.required());
            ArrayNode options = node.putArray("options");
            field.options().forEach(options::add);
            // left out when empty, so a state paused before fields had schemas keeps its digest
            if (!field.schema().isEmpty()) {
                node.set("schema", field.schema());
            }
        }
        return array;
    }

    private static InputField fieldFromTree(JsonFieldReader in) {
        return new InputField(in.text("name"),
                in.parse("type", code -> InputField.InputType.valueOf(code.toUpperCase(Locale.ROOT))),
                in.text("label"), in.text("description"), in.bool("required"),
                in.list("options", JsonFieldReader::textValue),
                // states paused before fields carried their schema have none: the tool still checks its arguments
                in.node().path("schema").isObject() ? (ObjectNode) in.node().get("schema") : null);
    }

    private static JsonNode targetToTree(ToolInvocationTarget target) {
        if (target == null) {
            return NODES.nullNode();
        }
        ObjectNode node = NODES.objectNode();
        node.put("kind", target.kind());
        node.put("identifier", target.identifier());
        return node;
    }

    private static ToolInvocationTarget targetFromTree(JsonFieldReader in) {
        return new ToolInvocationTarget(in.text("kind"), in.text("identifier"));
    }

    private static ObjectNode modelToTree(ModelConfiguration model) {
        ObjectNode node = NODES.objectNode();
        node.put("name", model.name());
        node.put("provider", model.provider());
        node.put("model", model.model());
        node.put("endpoint", model.endpoint());
        node.put("trustZone", model.trustZone().code());
        node.put("temperature", model.temperature());
        node.put("maxTokens", model.maxTokens());
        node.put("apiKeyEnvironment", model.apiKeyEnvironment());
        node.put("apiKeyFile", model.apiKeyFile());
        return node;
    }

    private static ModelConfiguration modelFromTree(JsonFieldReader in) {
        JsonNode temperature = in.node().get("temperature");
        JsonNode maxTokens = in.node().get("maxTokens");
        if (temperature != null && !temperature.isNull() && !temperature.isNumber()) {
            throw new IllegalArgumentException("field \"model.temperature\" must be a number");
        }
        if (maxTokens != null && !maxTokens.isNull() && !maxTokens.isInt()) {
            throw new IllegalArgumentException("field \"model.maxTokens\" must be an integer");
        }
        return new ModelConfiguration(in.text("name"), in.text("provider"), in.text("model"),
                in.optionalText("endpoint"), in.parse("trustZone", TrustZone::fromCode),
                temperature == null || temperature.isNull() ? null : temperature.asDouble(),
                maxTokens == null || maxTokens.isNull() ? null : maxTokens.asInt(),
                in.optionalText("apiKeyEnvironment"), in.optionalText("apiKeyFile"));
    }

    private static ObjectNode actorToTree(Actor actor) {
        ObjectNode node = NODES.objectNode();
        node.put("name", actor.name());
        ArrayNode roles = node.putArray("roles");
        actor.roles().stream().map(Enum::name).sorted().forEach(roles::add);
        return node;
    }

    private static Actor actorFromTree(JsonFieldReader in) {
        return new Actor(in.text("name"), Set.copyOf(in.list("roles", r -> r.parse(null, Role::valueOf))));
    }
}
