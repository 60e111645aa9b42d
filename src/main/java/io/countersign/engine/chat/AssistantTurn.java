package io.countersign.engine.chat;

import java.util.List;
import java.util.Objects;

/** A model's answer: text, the tool calls it asks for (possibly none), and the tokens it reported. */
public record AssistantTurn(String content, List<ToolCall> toolCalls, TokenUsage usage) {
    public AssistantTurn {
        content = content == null ? "" : content;
        toolCalls = List.copyOf(toolCalls);
        Objects.requireNonNull(usage, "usage");
    }

    public ChatMessage toMessage() {
        return ChatMessage.assistant(content, toolCalls);
    }
}
