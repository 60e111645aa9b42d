package io.countersign.webhook;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cloudevents.CloudEvent;
import io.cloudevents.core.builder.CloudEventBuilder;
import io.cloudevents.jackson.JsonCloudEventData;
import io.cloudevents.jackson.JsonFormat;
import io.countersign.engine.Names;
import io.countersign.engine.webhook.CardEvent;
import java.net.URI;
import java.time.ZoneOffset;

/**
 * A card event as a CloudEvents 1.0 JSON document in structured mode, written by the CloudEvents SDK. Its
 * {@code data} holds the event's codes, names and times only.
 */
final class CloudEventBody {
    /** What a receiver sees as the event's source; its {@code subject} is the run. */
    static final URI SOURCE = URI.create("urn:countersign:runs");
    static final String CONTENT_TYPE = JsonFormat.CONTENT_TYPE + "; charset=utf-8";
    private static final JsonFormat FORMAT = new JsonFormat();

    private CloudEventBody() {
    }

    static byte[] of(CardEvent event) {
        return FORMAT.serialize(cloudEvent(event));
    }

    static CloudEvent cloudEvent(CardEvent event) {
        return CloudEventBuilder.v1()
                .withId(event.id())
                .withSource(SOURCE)
                .withType(event.type().cloudEventType())
                .withSubject(event.runId())
                .withTime(event.time().atOffset(ZoneOffset.UTC))
                .withDataContentType("application/json")
                .withData(JsonCloudEventData.wrap(data(event)))
                .build();
    }

    /** The fields of {@code data}; those that do not apply are left out. */
    static ObjectNode data(CardEvent event) {
        ObjectNode data = JsonNodeFactory.instance.objectNode();
        data.put("runId", event.runId());
        putIfSet(data, "agent", event.agent());
        putIfSet(data, "startedBy", event.startedBy());
        ArrayNode tools = data.putArray("tools");
        event.tools().forEach(tool -> tools.add(Names.recordedToolName(tool)));
        putIfSet(data, "waitingFor", event.waitingFor());
        switch (event.type()) {
            case DECIDED -> {
                putIfSet(data, "decidedBy", event.actor());
                putIfSet(data, "decision", event.outcome());
            }
            case EXPIRED -> putIfSet(data, "fallback", event.outcome());
            case ESCALATED -> putIfSet(data, "escalatedTo", event.outcome());
            case WAITING -> {
            }
        }
        if (event.deadline() != null) {
            data.put("deadline", event.deadline().toString());
        }
        return data;
    }

    private static void putIfSet(ObjectNode data, String field, String value) {
        if (value != null) {
            data.put(field, value);
        }
    }
}
