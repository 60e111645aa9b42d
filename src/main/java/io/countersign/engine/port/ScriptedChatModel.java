package io.countersign.engine.port;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Json;
import io.countersign.engine.chat.AssistantTurn;
import io.countersign.engine.chat.ChatMessage;
import io.countersign.engine.chat.ChatRequest;
import io.countersign.engine.chat.TokenUsage;
import io.countersign.engine.chat.ToolCall;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A replay, not a model: it answers with the assistant turns of a JSON script, in order, and never reads the
 * prompt. Turn k answers the request whose transcript already holds k assistant messages, so a replay resumes
 * correctly after a pause, in another process, after a restart. It drives the tests and the demo workspace.
 *
 * <p>Script format: {@code {"turns": [{"content": "...", "toolCalls": [{"id": "optional", "name": "fs_write",
 * "arguments": {...}}], "usage": {"prompt": 120, "completion": 30}}]}}. A script can be chosen per model name
 * ({@link ModelConfiguration#model()}), so several scripted agents share one instance.
 */
public final class ScriptedChatModel implements ChatModel {
    private final Map<String, List<AssistantTurn>> scriptsByModel;
    private final List<AssistantTurn> defaultScript;

    private ScriptedChatModel(Map<String, List<AssistantTurn>> scriptsByModel, List<AssistantTurn> defaultScript) {
        this.scriptsByModel = Map.copyOf(scriptsByModel);
        this.defaultScript = defaultScript == null ? null : List.copyOf(defaultScript);
    }

    /** One script, replayed whatever model a request names. */
    public static ScriptedChatModel of(List<AssistantTurn> turns) {
        return new ScriptedChatModel(Map.of(), turns);
    }

    /** One script from its JSON text. */
    public static ScriptedChatModel fromJson(String script) {
        return of(parse(script));
    }

    /** A script per model name; a request naming another model fails clearly. */
    public static ScriptedChatModel byModel(Map<String, List<AssistantTurn>> scripts) {
        return new ScriptedChatModel(scripts, null);
    }

    /** Parses a script, failing with a message that names the turn and field that are wrong. */
    public static List<AssistantTurn> parse(String script) {
        JsonNode root;
        try {
            root = Json.mapper().readTree(script);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("script is not valid JSON: " + e.getOriginalMessage());
        }
        JsonNode turns = root == null ? null : root.get("turns");
        if (turns == null || !turns.isArray() || turns.isEmpty()) {
            throw new IllegalArgumentException("a script needs a non-empty \"turns\" array");
        }
        List<AssistantTurn> parsed = new ArrayList<>();
        for (int k = 0; k < turns.size(); k++) {
            parsed.add(parseTurn(turns.get(k), k));
        }
        return parsed;
    }

    private static AssistantTurn parseTurn(JsonNode turn, int k) {
        String where = "turn " + k;
        if (!turn.isObject()) {
            throw new IllegalArgumentException(where + " must be an object");
        }
        JsonNode content = turn.path("content");
        if (!content.isMissingNode() && !content.isTextual()) {
            throw new IllegalArgumentException(where + ": \"content\" must be a string");
        }
        List<ToolCall> calls = new ArrayList<>();
        JsonNode toolCalls = turn.path("toolCalls");
        if (!toolCalls.isMissingNode()) {
            if (!toolCalls.isArray()) {
                throw new IllegalArgumentException(where + ": \"toolCalls\" must be an array");
            }
            for (int i = 0; i < toolCalls.size(); i++) {
                JsonNode call = toolCalls.get(i);
                if (!call.path("name").isTextual()) {
                    throw new IllegalArgumentException(where + ", call " + i + ": \"name\" must be a string");
                }
                JsonNode arguments = call.path("arguments");
                if (!arguments.isMissingNode() && !arguments.isObject()) {
                    throw new IllegalArgumentException(where + ", call " + i + ": \"arguments\" must be an object");
                }
                String id = call.path("id").isTextual() ? call.get("id").asText() : "call_" + k + "_" + i;
                calls.add(new ToolCall(id, call.get("name").asText(),
                        arguments.isObject() ? (ObjectNode) arguments : JsonNodeFactory.instance.objectNode()));
            }
        }
        JsonNode usage = turn.path("usage");
        TokenUsage tokens = new TokenUsage(usage.path("prompt").asLong(0), usage.path("completion").asLong(0));
        return new AssistantTurn(content.asText(""), calls, tokens);
    }

    @Override
    public AssistantTurn complete(ChatRequest request) throws ModelException {
        List<AssistantTurn> script = scriptsByModel.getOrDefault(request.model().model(), defaultScript);
        if (script == null) {
            throw new ModelException("script_missing", "no script is loaded for the scripted model \""
                    + request.model().model() + "\"");
        }
        int answered = (int) request.messages().stream().filter(m -> m.role() == ChatMessage.Role.ASSISTANT).count();
        if (answered >= script.size()) {
            throw new ModelException("script_exhausted", "the script of \"" + request.model().model() + "\" has "
                    + script.size() + " turns and all of them were replayed");
        }
        return script.get(answered);
    }
}
