package io.countersign.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.grant.GrantSpan;
import io.countersign.engine.port.DecisionResult;
import io.countersign.service.Allowance;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import picocli.CommandLine.Option;

/**
 * The options of {@code decide} that change what an approval does: a person's arguments in place of the model's
 * ({@code --edit}), and a standing grant for the approved calls ({@code --allow}, {@code --allow-folder}). The
 * digest stays that of the card as read before the edit; the edit is part of the decision.
 */
final class DecisionEdits {
    @Option(names = "--edit", paramLabel = "INDEX=JSON", description = "Approve waiting call INDEX with its"
            + " arguments changed: the JSON object is merged into the model's arguments (a JSON merge patch: a key"
            + " set to null is removed). They are checked against the tool's schema and the rules before anything"
            + " is decided.")
    Map<Integer, String> edits = new TreeMap<>();

    @Option(names = "--allow", paramLabel = "1h|8h|run", description = "Also let the agent make the approved calls"
            + " again without a pause for an hour, eight hours, or the rest of this run (exactly the same"
            + " arguments, or see --allow-folder).")
    String allow;

    @Option(names = "--allow-folder", paramLabel = "FOLDER", description = "With --allow: cover any call of the"
            + " approved file tools whose file lies in this folder of the workspace (such as docs).")
    String folder;

    /** Edits and grants are checked and carried out by the deciding command itself, never queued. */
    void requireNotQueued(boolean queue) {
        if (queue && (!edits.isEmpty() || allow != null || folder != null)) {
            throw CliFailure.usage("--edit and --allow are checked and carried out here: leave out --queue");
        }
    }

    /**
     * The verdicts with the edited arguments in place.
     *
     * @throws CliFailure naming the index or the JSON that does not fit
     */
    List<Decision.CallVerdict> applyTo(Subcommand command, String runId,
                                               List<Decision.CallVerdict> verdicts) {
        List<Decision.CallVerdict> applied = new ArrayList<>(verdicts);
        if (edits.isEmpty()) {
            return applied;
        }
        Map<Integer, String> model = new TreeMap<>();
        command.runtime().runs().card(command.actor(), runId).ifPresent(card -> card.pending()
                .forEach(call -> model.put(call.index(), call.argumentsJson())));
        for (Map.Entry<Integer, String> edit : edits.entrySet()) {
            int index = edit.getKey();
            int at = -1;
            for (int i = 0; i < applied.size(); i++) {
                at = applied.get(i).index() == index ? i : at;
            }
            if (at < 0) {
                throw CliFailure.usage("--edit " + index + ": call " + index + " of run " + runId + " does not wait"
                        + " for approval (waiting: " + applied.stream().map(v -> String.valueOf(v.index()))
                        .collect(Collectors.joining(", ")) + ")");
            }
            if (!applied.get(at).approved()) {
                throw CliFailure.usage("--edit " + index + ": call " + index + " is denied; only a call that is"
                        + " approved can be edited");
            }
            ObjectNode merged = (ObjectNode) mergePatch(arguments(index, model.getOrDefault(index, "{}")),
                    arguments(index, edit.getValue()));
            applied.set(at, Decision.CallVerdict.approveEdited(index, merged));
        }
        return applied;
    }

    /** The allowance asked for, or {@code null}. */
    Allowance allowance() {
        if (allow == null) {
            if (folder != null) {
                throw CliFailure.usage("--allow-folder needs --allow 1h, 8h or run");
            }
            return null;
        }
        try {
            return new Allowance(GrantSpan.fromCode(allow), folder);
        } catch (IllegalArgumentException e) {
            throw CliFailure.usage("--allow: " + e.getMessage());
        }
    }

    /** The one-line answer to an edit or an allowance the service refused; nothing was decided. */
    static CliFailure refusal(DecisionResult.EditRefused refused) {
        String where = "run " + refused.runId() + ", call " + refused.index() + ": ";
        if (refused.rule() == null) {
            return CliFailure.usage(where + refused.explanation() + "; nothing was decided");
        }
        return CliFailure.refused(where + "rule " + refused.rule() + " refuses the call as edited: "
                + refused.explanation() + "; nothing was decided");
    }

    /** RFC 7386: the patch's members replace the target's, objects merge, and {@code null} removes a member. */
    static JsonNode mergePatch(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) {
            return patch;
        }
        ObjectNode result = target != null && target.isObject() ? ((ObjectNode) target).deepCopy()
                : Output.JSON.createObjectNode();
        patch.fields().forEachRemaining(member -> {
            if (member.getValue().isNull()) {
                result.remove(member.getKey());
            } else {
                result.set(member.getKey(), mergePatch(result.get(member.getKey()), member.getValue()));
            }
        });
        return result;
    }

    private static ObjectNode arguments(int index, String json) {
        JsonNode parsed;
        try {
            parsed = Output.JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw CliFailure.usage("--edit " + index + ": not JSON: " + e.getOriginalMessage());
        }
        if (parsed == null || !parsed.isObject()) {
            throw CliFailure.usage("--edit " + index + ": the arguments must be a JSON object, like"
                    + " {\"path\": \"docs/NOTES.md\"}");
        }
        return (ObjectNode) parsed;
    }
}
