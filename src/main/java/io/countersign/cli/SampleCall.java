package io.countersign.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.declarative.RecordedCall;
import io.countersign.engine.call.ToolInvocationObservation;
import io.countersign.engine.call.ToolInvocationTarget;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * A call an admin writes as JSON to try a rule on ({@code rules test --call}): the tool, its arguments and, if they
 * matter to the condition, the agent, the person, the target, the run's history and the time. What the condition
 * also sees of a call (the tool's server, effect and data class, the person's roles, the trust zone) is looked up
 * as for a recorded call.
 */
final class SampleCall {
    private static final List<String> FIELDS = List.of("tool", "args", "agent", "person", "target", "history", "now");
    private static final Set<String> HISTORY_FIELDS = Set.of("tool", "outcome", "target");

    private SampleCall() {
    }

    /** Reads the call from a file, or from standard input for {@code -}. */
    static RecordedCall read(String file, InputStream standardInput, String person, Instant now) {
        String text;
        try {
            text = file.equals("-") ? new String(standardInput.readAllBytes(), StandardCharsets.UTF_8)
                    : Files.readString(Path.of(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw CliFailure.usage("could not read the sample call " + file + ": " + e.getMessage());
        }
        JsonNode json;
        try {
            json = Output.JSON.readTree(text);
        } catch (IOException e) {
            throw CliFailure.usage("the sample call in " + file + " is not JSON: "
                    + e.getMessage().lines().findFirst().orElse(""));
        }
        return parse(json, person, now);
    }

    /** The call the JSON object describes; {@code person} and {@code now} when it names none. */
    static RecordedCall parse(JsonNode json, String person, Instant now) {
        if (json == null || !json.isObject()) {
            throw CliFailure.usage("the sample call must be a JSON object with \"tool\" and \"args\"");
        }
        json.fieldNames().forEachRemaining(field -> {
            if (!FIELDS.contains(field)) {
                throw CliFailure.usage("the sample call has no field \"" + field + "\"; its fields are "
                        + String.join(", ", FIELDS) + " (the server, effect, data class, roles and trust zone are"
                        + " looked up)");
            }
        });
        String tool = text(json, "tool", null);
        if (tool == null || tool.isBlank()) {
            throw CliFailure.usage("the sample call needs \"tool\", the name of the tool called");
        }
        JsonNode args = json.path("args");
        if (!args.isMissingNode() && !args.isObject()) {
            throw CliFailure.usage("\"args\" of the sample call must be a JSON object of the call's arguments");
        }
        Instant at = now;
        if (json.hasNonNull("now")) {
            try {
                at = Instant.parse(text(json, "now", null));
            } catch (java.time.format.DateTimeParseException e) {
                throw CliFailure.usage("\"now\" of the sample call must be an ISO-8601 instant such as"
                        + " 2026-12-01T10:00:00Z, not \"" + json.get("now").asText() + "\"");
            }
        }
        return new RecordedCall("sample", text(json, "agent", ""), text(json, "person", person), at, tool,
                args.isObject() ? (ObjectNode) args : Output.JSON.createObjectNode(),
                target(json.path("target"), "the sample call's \"target\""), history(json.path("history")));
    }

    private static List<ToolInvocationObservation> history(JsonNode history) {
        if (history.isMissingNode() || history.isNull()) {
            return List.of();
        }
        if (!history.isArray()) {
            throw CliFailure.usage("\"history\" of the sample call must be an array of {tool, outcome, target}");
        }
        List<ToolInvocationObservation> observations = new ArrayList<>();
        for (JsonNode item : history) {
            String where = "history entry " + (observations.size() + 1) + " of the sample call";
            if (!item.isObject()) {
                throw CliFailure.usage(where + " must be an object {tool, outcome, target}");
            }
            for (Iterator<String> fields = item.fieldNames(); fields.hasNext(); ) {
                String field = fields.next();
                if (!HISTORY_FIELDS.contains(field)) {
                    throw CliFailure.usage(where + " has no field \"" + field + "\"; its fields are tool, outcome,"
                            + " target");
                }
            }
            String tool = text(item, "tool", "");
            if (tool.isBlank()) {
                throw CliFailure.usage(where + " needs \"tool\"");
            }
            ToolInvocationObservation.Outcome outcome;
            try {
                outcome = ToolInvocationObservation.Outcome.fromCode(text(item, "outcome", "ok"));
            } catch (IllegalArgumentException e) {
                throw CliFailure.usage(where + ": " + e.getMessage() + "; the outcomes are ok, failed, cancelled,"
                        + " denied");
            }
            observations.add(new ToolInvocationObservation(tool, outcome, target(item.path("target"),
                    "the \"target\" of " + where)));
        }
        return observations;
    }

    private static ToolInvocationTarget target(JsonNode target, String where) {
        if (target.isMissingNode() || target.isNull()) {
            return null;
        }
        if (!target.isObject()) {
            throw CliFailure.usage(where + " must be an object {kind, id}");
        }
        try {
            return new ToolInvocationTarget(text(target, "kind", ""), text(target, "id", ""));
        } catch (IllegalArgumentException e) {
            throw CliFailure.usage(where + ": " + e.getMessage());
        }
    }

    private static String text(JsonNode object, String field, String missing) {
        JsonNode value = object.get(field);
        if (value == null || value.isNull()) {
            return missing;
        }
        if (!value.isTextual()) {
            throw CliFailure.usage("\"" + field + "\" of the sample call must be a string, not " + value);
        }
        return value.asText();
    }
}
