package io.countersign.service.gateway;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What a host's tool call came to, as the run's transcript holds it: the tool's text, or an error (a refusal by a
 * rule, a person's denial, a failed call), which the gateway returns with {@code isError: true}. A call that
 * executed and succeeded also carries {@code serverResult}, the server's own result (images, audio, resources,
 * {@code structuredContent}) that the text only summarizes; it is null otherwise.
 */
public record HostAnswer(String text, boolean error, JsonNode serverResult) {
    /**
     * The loop's tool message for a call, with the server's result when the call executed; its errors begin with
     * {@code Error:}, as every refusal does, and never carry a server's result.
     */
    static HostAnswer of(String toolMessage, JsonNode serverResult) {
        boolean error = toolMessage.startsWith("Error:");
        return new HostAnswer(toolMessage, error, error ? null : serverResult);
    }
}
