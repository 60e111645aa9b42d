package io.countersign.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.chat.AssistantTurn;
import io.countersign.engine.chat.ChatMessage;
import io.countersign.engine.chat.ChatRequest;
import io.countersign.engine.port.ModelException;
import io.countersign.engine.chat.TokenUsage;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.tool.ToolSpec;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The JSON of the chat-completions API as OpenAI defines it and Ollama, vLLM, LM Studio and llama.cpp's server
 * copy it. Reading is lenient where those servers really differ (a tool call without {@code type} or without an
 * id, arguments sent as an object instead of a string, no usage) and strict where the answer cannot be used.
 */
final class ChatCompletionsFormat {
    /** How much of a provider's error message a failure quotes. */
    static final int MAX_ERROR_MESSAGE = 300;

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            // Parse errors name line and column only, never quote the answer back.
            .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private ChatCompletionsFormat() {
    }

    /**
     * The request body for one round.
     *
     * @throws ModelException {@code invalid_request} when the tool choice asks for a tool that is not offered
     */
    static byte[] requestBody(ModelConfiguration model, ChatRequest request, FunctionNames names)
            throws ModelException {
        ObjectNode root = JSON.createObjectNode();
        root.put("model", model.model());
        ArrayNode messages = root.putArray("messages");
        request.messages().forEach(message -> messages.add(message(message, names)));
        if (!request.tools().isEmpty()) {
            ArrayNode tools = root.putArray("tools");
            request.tools().forEach(tool -> tools.add(tool(tool, names)));
        }
        JsonNode toolChoice = toolChoice(request, names);
        if (toolChoice != null) {
            root.set("tool_choice", toolChoice);
        }
        if (model.temperature() != null) {
            root.put("temperature", model.temperature());
        }
        if (model.maxTokens() != null) {
            root.put("max_tokens", model.maxTokens());
        }
        try {
            return JSON.writeValueAsBytes(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree could not be written", e);
        }
    }

    private static ObjectNode message(ChatMessage message, FunctionNames names) {
        ObjectNode node = JSON.createObjectNode();
        node.put("role", message.role().name().toLowerCase(Locale.ROOT));
        // Always a string: OpenAI takes "" beside tool calls, Ollama refuses a null content.
        node.put("content", message.content());
        if (!message.toolCalls().isEmpty()) {
            ArrayNode calls = node.putArray("tool_calls");
            for (ToolCall call : message.toolCalls()) {
                ObjectNode wire = calls.addObject();
                wire.put("id", call.id());
                wire.put("type", "function");
                ObjectNode function = wire.putObject("function");
                function.put("name", names.wire(call.name()));
                function.put("arguments", call.arguments().toString());
            }
        }
        if (message.toolCallId() != null) {
            node.put("tool_call_id", message.toolCallId());
        }
        return node;
    }

    private static ObjectNode tool(ToolSpec tool, FunctionNames names) {
        ObjectNode node = JSON.createObjectNode();
        node.put("type", "function");
        ObjectNode function = node.putObject("function");
        function.put("name", names.wire(tool.name()));
        function.put("description", tool.description());
        function.set("parameters", tool.parameters());
        return node;
    }

    /** The wire value of the tool choice, or {@code null} to send none. */
    private static JsonNode toolChoice(ChatRequest request, FunctionNames names) throws ModelException {
        String choice = request.toolChoice();
        if (choice == null) {
            return null;
        }
        boolean noTools = request.tools().isEmpty();
        switch (choice) {
            case "none", "auto" -> {
                // OpenAI refuses a tool_choice without tools, and without tools both mean the same anyway.
                return noTools ? null : JSON.getNodeFactory().textNode(choice);
            }
            case "required" -> {
                if (noTools) {
                    throw new ModelException("invalid_request", "tool_choice \"required\" needs at least one tool,"
                            + " but the request offers none");
                }
                return JSON.getNodeFactory().textNode(choice);
            }
            default -> {
                if (request.tools().stream().noneMatch(tool -> tool.name().equals(choice))) {
                    throw new ModelException("invalid_request", "tool_choice names the tool \"" + choice
                            + "\", which is not among the " + request.tools().size() + " offered tools");
                }
                ObjectNode node = JSON.createObjectNode();
                node.put("type", "function");
                node.putObject("function").put("name", names.wire(choice));
                return node;
            }
        }
    }

    /**
     * Reads a successful answer; the calls it holds name our tools again, not their function names.
     *
     * @throws ModelException {@code malformed_response}, saying what is wrong and where
     */
    static AssistantTurn parseResponse(byte[] body, String contentType, FunctionNames names) throws ModelException {
        JsonNode root = parse(body, contentType);
        if (!root.isObject()) {
            throw malformed("the response is " + typeOf(root) + ", not a JSON object");
        }
        JsonNode choices = root.get("choices");
        if (choices == null || choices.isNull()) {
            throw malformed("the response has no \"choices\"" + (root.has("error")
                    ? "; it carries an error, whose text is the provider's and is not shown" : ""));
        }
        if (!choices.isArray()) {
            throw malformed("\"choices\" is " + typeOf(choices) + ", not an array");
        }
        if (choices.isEmpty()) {
            throw malformed("\"choices\" is empty");
        }
        JsonNode choice = choices.get(0);
        if (!choice.isObject()) {
            throw malformed("choices[0] is " + typeOf(choice) + ", not an object");
        }
        JsonNode message = choice.get("message");
        if (message == null || !message.isObject()) {
            throw malformed("choices[0] has no \"message\" object");
        }
        boolean cutOff = "length".equals(choice.path("finish_reason").asText());
        return new AssistantTurn(content(message), toolCalls(message.get("tool_calls"), cutOff, names),
                usage(root.get("usage")));
    }

    private static JsonNode parse(byte[] body, String contentType) throws ModelException {
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (IOException e) {
            String what = contentType == null ? "" : " (content type " + contentType + ")";
            String where = e instanceof JsonProcessingException json && json.getLocation() != null
                    ? " at line " + json.getLocation().getLineNr() + ", column " + json.getLocation().getColumnNr()
                    : "";
            // the parser's message quotes the body, and the body is the provider's text: it stays out
            throw new ModelException("malformed_response", "the response is not valid JSON" + what + where, e);
        }
        if (root == null || root.isMissingNode()) {
            throw malformed("the response body is empty");
        }
        return root;
    }

    private static String content(JsonNode message) throws ModelException {
        JsonNode content = message.get("content");
        if (content == null || content.isNull()) {
            // OpenAI puts a refusal beside a null content; it is the model's answer all the same.
            JsonNode refusal = message.get("refusal");
            return refusal != null && refusal.isTextual() ? refusal.asText() : "";
        }
        if (!content.isTextual()) {
            throw malformed("choices[0].message.content is " + typeOf(content) + ", not text");
        }
        return content.asText();
    }

    private static List<ToolCall> toolCalls(JsonNode toolCalls, boolean cutOff, FunctionNames names)
            throws ModelException {
        if (toolCalls == null || toolCalls.isNull()) {
            return List.of();
        }
        if (!toolCalls.isArray()) {
            throw malformed("choices[0].message.tool_calls is " + typeOf(toolCalls) + ", not an array");
        }
        List<ToolCall> calls = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (int index = 0; index < toolCalls.size(); index++) {
            ToolCall call = toolCall(toolCalls.get(index), index, cutOff, names);
            if (!ids.add(call.id())) {
                throw malformed("two tool calls share the id \"" + truncate(call.id()) + "\"");
            }
            calls.add(call);
        }
        return calls;
    }

    private static ToolCall toolCall(JsonNode call, int index, boolean cutOff, FunctionNames names)
            throws ModelException {
        String where = "tool_calls[" + index + "]";
        if (!call.isObject()) {
            throw malformed(where + " is " + typeOf(call) + ", not an object");
        }
        JsonNode type = call.get("type");
        if (type != null && !type.isNull() && !"function".equals(type.asText(null))) {
            throw malformed(where + " has type " + truncate(type.toString()) + "; only \"function\" is understood");
        }
        JsonNode function = call.get("function");
        if (function == null || !function.isObject()) {
            throw malformed(where + " has no \"function\" object");
        }
        JsonNode name = function.get("name");
        if (name == null || !name.isTextual() || name.asText().isBlank()) {
            throw malformed(where + " has no function name");
        }
        String toolName = names.name(name.asText());
        return new ToolCall(id(call.get("id"), where, index), toolName,
                arguments(function.get("arguments"), where + " (\"" + truncate(toolName) + "\")", cutOff));
    }

    private static String id(JsonNode id, String where, int index) throws ModelException {
        if (id == null || id.isNull() || (id.isTextual() && id.asText().isBlank())) {
            // Some local servers leave ids out; the transcript still needs one to answer the call by.
            return "call_" + index;
        }
        if (!id.isTextual()) {
            throw malformed(where + " has an id that is " + typeOf(id) + ", not text");
        }
        return id.asText();
    }

    private static ObjectNode arguments(JsonNode arguments, String where, boolean cutOff)
            throws ModelException {
        if (arguments == null || arguments.isNull()) {
            return JSON.createObjectNode();
        }
        if (arguments.isObject()) {
            return (ObjectNode) arguments;
        }
        if (!arguments.isTextual()) {
            throw malformed(where + " has arguments that are " + typeOf(arguments)
                    + ", not a JSON object or a string holding one");
        }
        String text = arguments.asText();
        if (text.isBlank()) {
            return JSON.createObjectNode();
        }
        JsonNode parsed;
        try {
            parsed = JSON.readTree(text);
        } catch (IOException e) {
            throw new ModelException("malformed_response", where + " has arguments that are not valid JSON"
                    + (cutOff ? " (the answer was cut off at the token limit)" : ""), e);
        }
        if (parsed == null || !parsed.isObject()) {
            throw malformed(where + " has arguments that are " + typeOf(parsed) + ", not a JSON object");
        }
        return (ObjectNode) parsed;
    }

    /** Usage is bookkeeping, not the answer: what is missing or unreadable counts as zero. */
    private static TokenUsage usage(JsonNode usage) {
        if (usage == null || !usage.isObject()) {
            return TokenUsage.NONE;
        }
        return new TokenUsage(count(usage.get("prompt_tokens")), count(usage.get("completion_tokens")));
    }

    private static long count(JsonNode tokens) {
        return tokens != null && tokens.isIntegralNumber() && tokens.canConvertToLong() && tokens.asLong() >= 0
                ? tokens.asLong()
                : 0;
    }

    static String truncate(String text) {
        String flat = text.replaceAll("[\\s\\p{Cntrl}]+", " ").strip();
        if (flat.length() <= MAX_ERROR_MESSAGE) {
            return flat;
        }
        int cut = MAX_ERROR_MESSAGE - 1;
        return flat.substring(0, Character.isHighSurrogate(flat.charAt(cut - 1)) ? cut - 1 : cut) + "…";
    }

    /** The kind of a JSON value with its article, for messages: "an array", "a string", "null". */
    private static String typeOf(JsonNode node) {
        if (node == null || node.isMissingNode()) {
            return "nothing";
        }
        return switch (node.getNodeType()) {
            case ARRAY -> "an array";
            case OBJECT, POJO -> "an object";
            case NULL -> "null";
            default -> "a " + node.getNodeType().name().toLowerCase(Locale.ROOT);
        };
    }

    private static ModelException malformed(String message) {
        return new ModelException("malformed_response", message);
    }
}
