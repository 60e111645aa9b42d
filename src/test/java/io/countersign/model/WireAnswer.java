package io.countersign.model;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import mockwebserver3.MockResponse;

/**
 * Chat-completions answers as a provider sends them, in the shapes of the recorded answers next to this class:
 * OpenAI's ({@code content: null} beside tool calls, usage details) or Ollama's OpenAI-compatible endpoint's
 * ({@code content: ""}, an {@code index} on every tool call).
 */
enum WireAnswer {
    OPENAI("gpt-4o-mini-2024-07-18"),
    OLLAMA("qwen2.5-coder:7b");

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String servedModel;

    WireAnswer(String servedModel) {
        this.servedModel = servedModel;
    }

    /** One tool call of an answer; {@code arguments} is the JSON text the model wrote. */
    record Call(String id, String name, String arguments) {
    }

    static Call call(String id, String name, String arguments) {
        return new Call(id, name, arguments);
    }

    /** An answer that asks for the given calls, in order. */
    MockResponse toolCalls(Call... calls) {
        ObjectNode message = JSON.createObjectNode().put("role", "assistant");
        if (this == OPENAI) {
            message.putNull("content");
        } else {
            message.put("content", "");
        }
        ArrayNode wire = message.putArray("tool_calls");
        for (int i = 0; i < calls.length; i++) {
            ObjectNode call = wire.addObject().put("id", calls[i].id());
            if (this == OLLAMA) {
                call.put("index", i);
            }
            call.put("type", "function");
            call.putObject("function").put("name", calls[i].name()).put("arguments", calls[i].arguments());
        }
        return respond(message, "tool_calls", 82, 17);
    }

    /** A plain answer that ends the run. */
    MockResponse text(String content) {
        return respond(JSON.createObjectNode().put("role", "assistant").put("content", content), "stop", 120, 9);
    }

    private MockResponse respond(ObjectNode message, String finishReason, int promptTokens, int completionTokens) {
        ObjectNode root = JSON.createObjectNode()
                .put("id", "chatcmpl-" + name().toLowerCase() + "-" + promptTokens)
                .put("object", "chat.completion")
                .put("created", 1746631077)
                .put("model", servedModel);
        ObjectNode choice = root.putArray("choices").addObject().put("index", 0);
        choice.set("message", message);
        choice.put("finish_reason", finishReason);
        ObjectNode usage = root.putObject("usage").put("prompt_tokens", promptTokens)
                .put("completion_tokens", completionTokens).put("total_tokens", promptTokens + completionTokens);
        if (this == OPENAI) {
            usage.putObject("prompt_tokens_details").put("cached_tokens", 0);
        }
        return new MockResponse.Builder().addHeader("Content-Type", "application/json").body(root.toString())
                .build();
    }

    /** A provider error with OpenAI's error body. */
    static MockResponse serverError(int code) {
        return new MockResponse.Builder().code(code).addHeader("Content-Type", "application/json")
                .body("{\"error\":{\"message\":\"The server had an error while processing your request.\","
                        + "\"type\":\"server_error\",\"param\":null,\"code\":null}}")
                .build();
    }
}
