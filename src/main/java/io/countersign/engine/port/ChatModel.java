package io.countersign.engine.port;

import io.countersign.engine.chat.AssistantTurn;
import io.countersign.engine.chat.ChatRequest;

/** Port: a model that answers a transcript, possibly with tool calls. */
@FunctionalInterface
public interface ChatModel {

    /**
     * Sends the request and returns the model's turn.
     *
     * @throws ModelException when the provider fails or answers something that is not a valid turn; the message
     *                        says what went wrong and never carries credentials
     */
    AssistantTurn complete(ChatRequest request) throws ModelException;
}
