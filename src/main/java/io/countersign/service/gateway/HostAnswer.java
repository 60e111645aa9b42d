package io.countersign.service.gateway;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What a host's tool call came to: the tool's text, or an error (a refusal by a rule, a person's denial, a failed
 * call), which the gateway returns with {@code isError: true}. A call that executed and succeeded also carries
 * {@code serverResult}, the server's own result (images, audio, resources, {@code structuredContent}) that the text
 * only summarizes, and {@code note} when a person changed its arguments before approving it; both are null
 * otherwise.
 */
public record HostAnswer(String text, boolean error, JsonNode serverResult, String note) {
    /** The loop's tool message for a call that has no server result; its errors begin with {@code Error:}. */
    static HostAnswer of(String toolMessage) {
        return new HostAnswer(toolMessage, toolMessage.startsWith("Error:"), null, null);
    }
}
