package io.countersign.engine.run;

import io.countersign.engine.call.ToolExecutionContext;
import io.countersign.engine.chat.ChatMessage;
import java.util.List;
import java.util.Objects;

/**
 * What {@link ToolLoop#runLoop} starts from. Without {@code skipAssembly} the loop assembles the prompt (the
 * configuration's system prompt, then {@code messages}); with it, {@code messages} is the transcript as is. A run
 * that starts from an assembled prompt with zero seeds has a complete empty history; any other start needs
 * {@link ToolExecutionContext#initialInvocationHistory()} to prove its history, else the history is incomplete.
 */
public record RunRequest(AgentConfiguration configuration, ToolExecutionContext context, List<ChatMessage> messages,
                         boolean skipAssembly, RunCounters seeds, RunOptions options) {
    public RunRequest {
        Objects.requireNonNull(configuration, "configuration");
        Objects.requireNonNull(context, "context");
        messages = List.copyOf(messages);
        seeds = seeds == null ? RunCounters.ZERO : seeds;
        options = options == null ? RunOptions.DEFAULTS : options;
        if (messages.isEmpty()) {
            throw new IllegalArgumentException("a run needs at least one message to start from");
        }
    }

    /** A fresh run of one prompt. */
    public static RunRequest of(AgentConfiguration configuration, ToolExecutionContext context, String prompt) {
        return new RunRequest(configuration, context, List.of(ChatMessage.user(prompt)), false, RunCounters.ZERO,
                RunOptions.DEFAULTS);
    }

    public RunRequest withOptions(RunOptions runOptions) {
        return new RunRequest(configuration, context, messages, skipAssembly, seeds, runOptions);
    }
}
