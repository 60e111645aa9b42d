package io.countersign.engine.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How many distinct people must approve an agent's cards: a count for every card ({@code approvals}) and counts
 * per tool that replace it for that tool's calls ({@code toolApprovals}). A card needs the largest count of the
 * calls it approves; a decision that approves nothing (a denial) never waits for anyone else.
 *
 * @param approvals the count for the agent's cards, at least 1
 * @param tools     counts by tool name, each at least 1
 */
public record ApprovalQuorum(int approvals, Map<String, Integer> tools) {
    /** One approval decides a card, as without a quorum. */
    public static final ApprovalQuorum ONE = new ApprovalQuorum(1, Map.of());
    /** The fields of an agent entry a quorum is written in. */
    public static final List<String> FIELDS = List.of("approvals", "toolApprovals");
    /** More than this many approvers is a typo, not a policy. */
    public static final int MOST = 9;

    public ApprovalQuorum {
        requireCount("approvals", approvals);
        tools = Map.copyOf(new TreeMap<>(tools));
        tools.forEach((tool, count) -> requireCount("toolApprovals.\"" + tool + "\"", count));
    }

    /** The approvals a decision needs that approves calls of these tools; 1 when it approves none. */
    public int required(Collection<String> approvedTools) {
        return approvedTools.stream().mapToInt(tool -> tools.getOrDefault(tool, approvals)).max().orElse(1);
    }

    /** True when every card is decided by one person. */
    public boolean single() {
        return approvals == 1 && tools.values().stream().allMatch(count -> count == 1);
    }

    /**
     * Reads the quorum fields of an agent entry (absent fields: one approval).
     *
     * @throws IllegalArgumentException naming the field and the bad value
     */
    public static ApprovalQuorum read(JsonNode entry) {
        int approvals = count("approvals", entry.get("approvals"));
        Map<String, Integer> tools = new TreeMap<>();
        JsonNode perTool = entry.get("toolApprovals");
        if (perTool != null && !perTool.isNull()) {
            if (!perTool.isObject()) {
                throw new IllegalArgumentException("toolApprovals must be an object of tool names, each with the"
                        + " number of people who must approve its calls, got " + perTool);
            }
            for (Iterator<Map.Entry<String, JsonNode>> fields = perTool.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> tool = fields.next();
                JsonNode value = tool.getValue();
                if (value == null || value.isNull()) {
                    throw new IllegalArgumentException("toolApprovals.\"" + tool.getKey() + "\" must be a whole"
                            + " number from 1 to " + MOST + ", got null");
                }
                tools.put(tool.getKey(), count("toolApprovals.\"" + tool.getKey() + "\"", value));
            }
        }
        return new ApprovalQuorum(approvals, tools);
    }

    /** Writes the fields that differ from one approval into an agent entry. */
    public void writeTo(ObjectNode entry) {
        if (approvals != 1) {
            entry.put("approvals", approvals);
        }
        if (!tools.isEmpty()) {
            ObjectNode perTool = entry.putObject("toolApprovals");
            new TreeMap<>(tools).forEach(perTool::put);
        }
    }

    private static int count(String field, JsonNode value) {
        if (value == null || value.isNull()) {
            return 1;
        }
        if (!value.isIntegralNumber() || !value.canConvertToInt()) {
            throw new IllegalArgumentException(field + " must be a whole number from 1 to " + MOST + ", got "
                    + value);
        }
        requireCount(field, value.intValue());
        return value.intValue();
    }

    private static void requireCount(String field, int count) {
        if (count < 1 || count > MOST) {
            throw new IllegalArgumentException(field + " must be a whole number from 1 to " + MOST
                    + " (how many distinct people approve), got " + count);
        }
    }
}
