package io.countersign.engine.chat;

import io.countersign.engine.AppendOnlyList;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.tool.ToolSpec;
import java.util.List;
import java.util.Objects;

/**
 * One request to a model: which model, the transcript, the offered tools, and the tool choice ({@code null}
 * for the provider's default, {@code "none"} to forbid tool calls, {@code "required"}, or one tool's name).
 */
public record ChatRequest(ModelConfiguration model, List<ChatMessage> messages, List<ToolSpec> tools,
                          String toolChoice) {
    public ChatRequest {
        Objects.requireNonNull(model, "model");
        messages = AppendOnlyList.of(messages);
        tools = List.copyOf(tools);
    }
}
