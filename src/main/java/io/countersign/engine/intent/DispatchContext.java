package io.countersign.engine.intent;

import io.countersign.engine.AppendOnlyList;
import io.countersign.engine.chat.ChatMessage;
import java.util.List;
import java.util.Map;

/**
 * What an intent policy's {@code match} and {@code guard} see, built the same way at both seams: the
 * messages (at the POST seam including the just-emitted assistant turn), the run's scope values, the names of
 * the tools resolved for the turn, and the forced tool choice ({@code null} when none).
 */
public record DispatchContext(List<ChatMessage> messages, Map<String, String> scope, List<String> resolvedToolNames,
                              String forcedToolChoice) {
    public DispatchContext {
        messages = AppendOnlyList.of(messages);
        scope = Map.copyOf(scope);
        resolvedToolNames = List.copyOf(resolvedToolNames);
    }

    /** The content of the last user message, or an empty string. */
    public String lastUserMessage() {
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i).role() == ChatMessage.Role.USER) {
                return messages.get(i).content();
            }
        }
        return "";
    }
}
