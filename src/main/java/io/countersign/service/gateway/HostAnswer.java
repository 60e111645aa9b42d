package io.countersign.service.gateway;

/**
 * What a host's tool call came to, as the run's transcript holds it: the tool's text, or an error (a refusal by a
 * rule, a person's denial, a failed call), which the gateway returns with {@code isError: true}.
 */
public record HostAnswer(String text, boolean error) {
    /** The loop's tool message for a call; its errors begin with {@code Error:}, as every refusal does. */
    static HostAnswer of(String toolMessage) {
        return new HostAnswer(toolMessage, toolMessage.startsWith("Error:"));
    }
}
