package io.countersign.webhook;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Json;
import io.countersign.engine.Names;
import io.countersign.engine.webhook.CardEvent;
import java.nio.charset.StandardCharsets;
import java.util.stream.Collectors;

/**
 * A card event as a Slack-compatible message, {@code {"text": ...}}, as Slack's incoming webhooks (and Mattermost's,
 * Rocket.Chat's) take it: one line naming the agent, the run, the tools and who, never arguments.
 */
final class SlackBody {
    static final String CONTENT_TYPE = "application/json; charset=utf-8";

    private SlackBody() {
    }

    static byte[] of(CardEvent event) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.put("text", text(event));
        try {
            return Json.mapper().writeValueAsString(body).getBytes(StandardCharsets.UTF_8);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("a text message could not be written as JSON", e);
        }
    }

    static String text(CardEvent event) {
        String tools = event.tools().isEmpty() ? "" : " (" + event.tools().stream().map(Names::recordedToolName)
                .collect(Collectors.joining(", ")) + ")";
        String card = "Countersign: " + orUnknown(event.agent()) + " run " + event.runId() + tools;
        String what = switch (event.type()) {
            case WAITING -> " waits for " + ("input".equals(event.waitingFor()) ? "input" : "approval")
                    + (event.startedBy() == null ? "" : ", started by " + event.startedBy())
                    + (event.deadline() == null ? "" : "; deadline " + event.deadline());
            case DECIDED -> " was decided by " + orUnknown(event.actor())
                    + (event.outcome() == null ? "" : ": " + event.outcome());
            case EXPIRED -> " expired with no decision; fallback: " + orUnknown(event.outcome());
            case ESCALATED -> " was escalated to " + orUnknown(event.outcome()) + " with no decision"
                    + (event.deadline() == null ? "" : "; new deadline " + event.deadline());
        };
        return card + what;
    }

    private static String orUnknown(String value) {
        return value == null ? "unknown" : value;
    }
}
