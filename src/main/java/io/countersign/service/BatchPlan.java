package io.countersign.service;

import io.countersign.engine.call.ToolInvocationTarget;
import io.countersign.engine.port.ApprovalProgress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What deciding many cards at once will do, read before anything is decided: each card as it was shown (its
 * digest goes back with its decision), with the calls it waits on and the calls a rule already refused, and the
 * cards grouped where they are identical (same agent, same calls) with a count. Cards that no longer wait when
 * the plan is read are named in {@code gone}.
 */
public record BatchPlan(List<Card> cards, List<String> gone) {
    public BatchPlan {
        cards = List.copyOf(cards);
        gone = List.copyOf(gone);
    }

    /** One card as shown. */
    public record Card(String runId, String agent, String initiator, String digest, List<Call> calls,
                       List<Refused> refused, ApprovalProgress approvals) {
        public Card {
            calls = List.copyOf(calls);
            refused = List.copyOf(refused);
        }

        /** What makes two cards identical: the agent and every call with its arguments, waiting or refused. */
        String sameness() {
            return agent + "\n" + calls.stream().map(call -> call.tool() + " " + call.argumentsJson())
                    .collect(Collectors.joining("\n")) + "\n-\n" + refused.stream()
                    .map(call -> call.tool() + " " + call.argumentsJson()).collect(Collectors.joining("\n"));
        }
    }

    /** A call that waits for a verdict, with its target as a rule would see it ({@code null} when it has none). */
    public record Call(int index, String tool, ToolInvocationTarget target, String argumentsJson) {
        /** "fs_write file: docs/NOTES.md". */
        public String describe() {
            return target == null ? tool : tool + " " + target.kind() + ": " + target.identifier();
        }
    }

    /** A call a rule refused before the card was shown; it is refused whatever the batch decides. */
    public record Refused(String tool, ToolInvocationTarget target, String rule, String argumentsJson) {
        /** "fs_delete file: /etc/passwd (workspace.boundary)". */
        public String describe() {
            return (target == null ? tool : tool + " " + target.kind() + ": " + target.identifier()) + " (" + rule
                    + ")";
        }
    }

    /** Identical cards, in the order of their first card, with how many there are. */
    public record Group(Card first, List<String> runIds) {
        public Group {
            runIds = List.copyOf(runIds);
        }

        public int count() {
            return runIds.size();
        }

        /** "release-notes-bot: fs_write file: docs/NOTES.md; refused: fs_delete file: x (workspace.boundary)". */
        public String describe() {
            String calls = first.calls().stream().map(Call::describe).collect(Collectors.joining(", "));
            String refused = first.refused().isEmpty() ? "" : "; refused: " + first.refused().stream()
                    .map(Refused::describe).collect(Collectors.joining(", "));
            return first.agent() + ": " + calls + refused;
        }
    }

    /** The cards grouped where identical, in the order of each group's first card. */
    public List<Group> groups() {
        Map<String, List<Card>> byKind = new LinkedHashMap<>();
        for (Card card : cards) {
            byKind.computeIfAbsent(card.sameness(), key -> new ArrayList<>()).add(card);
        }
        return byKind.values().stream().map(same -> new Group(same.get(0),
                same.stream().map(Card::runId).toList())).toList();
    }

    /** How many calls the batch would let run (approving) or refuse (denying). */
    public int waitingCalls() {
        return cards.stream().mapToInt(card -> card.calls().size()).sum();
    }

    /** How many calls rules refused already, which are refused whatever is decided. */
    public int refusedCalls() {
        return cards.stream().mapToInt(card -> card.refused().size()).sum();
    }
}
