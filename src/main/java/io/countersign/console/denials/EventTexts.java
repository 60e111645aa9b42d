package io.countersign.console.denials;

import io.countersign.console.common.Messages;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** How the denial browser words a governance event: its times in the console's zone, its meaning, its fields. */
public final class EventTexts {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
    private static final DateTimeFormatter SHORT_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm");

    private final Messages messages;
    private final ZoneId zone;

    EventTexts(Messages messages, ZoneId zone) {
        this.messages = Objects.requireNonNull(messages, "messages");
        this.zone = Objects.requireNonNull(zone, "zone");
    }

    /** The whole event, a line per field that it has. */
    List<EventField> fieldsOf(GovernanceEvent event) {
        List<EventField> fields = new ArrayList<>();
        fields.add(new EventField(messages.get("denials.field.what"), explanation(event.type()), false));
        fields.add(new EventField(messages.get("denials.column.time"), timeOf(event), false));
        fields.add(new EventField(messages.get("denials.column.type"), event.type().code(), true));
        addIfPresent(fields, "denials.column.reason", event.reasonCode());
        addIfPresent(fields, "denials.column.rule", event.ruleId());
        addIfPresent(fields, "denials.column.tool", event.toolName());
        addIfPresent(fields, "denials.column.agent", event.agentConfiguration());
        addIfPresent(fields, "denials.column.actor", event.actor());
        addIfPresent(fields, "denials.field.model", event.model());
        addIfPresent(fields, "denials.column.run", event.runId());
        addIfPresent(fields, "denials.field.detail", event.detail());
        fields.add(new EventField(messages.get("denials.field.id"), event.id(), true));
        return fields;
    }

    /** A line per call the decision denied, with the operator's reason: what the model was told. */
    List<EventField> denyReasons(List<Decision.CallVerdict> denied) {
        return denied.stream().map(verdict -> new EventField(messages.get("denials.field.denyReason"),
                verdict.reason() == null || verdict.reason().isBlank()
                        ? messages.get("denials.field.noReason", verdict.index() + 1)
                        : messages.get("denials.field.reasonOf", verdict.index() + 1, verdict.reason().strip()),
                false)).toList();
    }

    private void addIfPresent(List<EventField> fields, String key, String value) {
        if (value != null && !value.isBlank()) {
            fields.add(new EventField(messages.get(key), value, true));
        }
    }

    /** What an event of a type means, in a sentence. */
    public String explanation(EventType eventType) {
        return messages.get("denials.explain." + eventType.name());
    }

    /** The event's time in the console's zone ("2026-11-29 14:03:07"). */
    public String timeOf(GovernanceEvent event) {
        return TIME.format(event.time().atZone(zone));
    }

    /** The event's time in the console's zone to the minute without the year, for the table ("11-29 14:03"). */
    public String shortTimeOf(GovernanceEvent event) {
        return SHORT_TIME.format(event.time().atZone(zone));
    }
}
