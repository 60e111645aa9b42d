package io.countersign.engine.chat;

import io.countersign.engine.Role;
import java.util.List;
import java.util.Objects;

/**
 * One message of a transcript. Assistant messages may carry tool calls; tool messages answer one call by its
 * id. {@code content} is never {@code null} (empty for an assistant turn that only calls tools).
 */
public record ChatMessage(Role role, String content, List<ToolCall> toolCalls, String toolCallId) {
    public ChatMessage {
        Objects.requireNonNull(role, "role");
        content = content == null ? "" : content;
        toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
        if (role != Role.ASSISTANT && !toolCalls.isEmpty()) {
            throw new IllegalArgumentException("only an assistant message can carry tool calls");
        }
        if ((role == Role.TOOL) != (toolCallId != null)) {
            throw new IllegalArgumentException("a tool message, and only a tool message, answers a tool call id");
        }
    }

    public static ChatMessage system(String content) {
        return new ChatMessage(Role.SYSTEM, content, List.of(), null);
    }

    public static ChatMessage user(String content) {
        return new ChatMessage(Role.USER, content, List.of(), null);
    }

    public static ChatMessage assistant(String content, List<ToolCall> toolCalls) {
        return new ChatMessage(Role.ASSISTANT, content, toolCalls, null);
    }

    public static ChatMessage tool(String toolCallId, String content) {
        return new ChatMessage(Role.TOOL, content, List.of(), toolCallId);
    }

    /** Who wrote a message. */
    public enum Role {
        SYSTEM,
        USER,
        ASSISTANT,
        TOOL
    }
}
