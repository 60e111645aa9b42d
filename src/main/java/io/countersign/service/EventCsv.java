package io.countersign.service;

import io.countersign.engine.event.GovernanceEvent;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Governance events as CSV (RFC 4180: comma-separated, fields with a comma, quote or line break quoted). A field
 * that a spreadsheet would read as a formula (starting with {@code = + - @}, a tab or a carriage return) gets a
 * leading apostrophe, so opening an export never runs what someone typed as a user name.
 */
public final class EventCsv {
    /** The columns, in order. */
    public static final String HEADER = "id,time,type,reason,tool,rule,run,agent,actor,model,detail";

    private EventCsv() {
    }

    /** One event as a CSV line, without the line break. */
    public static String row(GovernanceEvent event) {
        return line(Stream.of(event.id(), event.time().toString(), event.type().code(), event.reasonCode(),
                event.toolName(), event.ruleId(), event.runId(), event.agentConfiguration(), event.actor(),
                event.model(), event.detail()).toList());
    }

    /** Any values as a CSV line; {@code null} is an empty field. */
    public static String line(List<String> values) {
        return values.stream().map(EventCsv::field).collect(Collectors.joining(","));
    }

    private static String field(String value) {
        if (value == null) {
            return "";
        }
        String safe = !value.isEmpty() && "=+-@\t\r".indexOf(value.charAt(0)) >= 0 ? "'" + value : value;
        if (safe.contains(",") || safe.contains("\"") || safe.contains("\n") || safe.contains("\r")) {
            return "\"" + safe.replace("\"", "\"\"") + "\"";
        }
        return safe;
    }
}
