package io.countersign.engine.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Role;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.RunStatus;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * An agent's decision deadlines: one rule for its cards ({@code decisionDeadline}, {@code onDeadline}), rules per
 * tool that replace it for the calls of that tool ({@code toolDeadlines}), and who sees escalated cards first
 * ({@code escalationRole}). Of the calls a card waits on, the shortest applicable deadline wins. An input form
 * may only be cancelled at its deadline: the agent's rule applies to input pauses when it cancels, and a tool's
 * rule for an input tool must cancel.
 *
 * @param agentRule      the agent's rule, or {@code null} for cards that wait without a deadline
 * @param toolRules      rules by tool name
 * @param escalationRole the role whose holders see escalated cards first
 */
public record DecisionDeadlines(DeadlineRule agentRule, Map<String, DeadlineRule> toolRules, Role escalationRole) {
    /** No deadline: every card waits until someone decides it. */
    public static final DecisionDeadlines NONE = new DecisionDeadlines(null, Map.of(), Role.ADMIN);
    /** The fields of an agent entry these deadlines are written in. */
    public static final List<String> FIELDS = List.of("decisionDeadline", "onDeadline", "escalationRole",
            "toolDeadlines");
    /** The actor a deadline's fallback is recorded by. */
    public static final String ACTOR = "deadline";
    /** The reason a call declined at its deadline is refused with. */
    public static final String DENIAL_REASON = "no decision before the deadline";

    public DecisionDeadlines {
        toolRules = Map.copyOf(toolRules);
        escalationRole = escalationRole == null ? Role.ADMIN : escalationRole;
    }

    /** The deadline of a card waiting for approval of these tools' calls: the shortest applicable rule. */
    public Optional<DeadlineRule> forApproval(List<String> tools) {
        return tools.stream().map(tool -> toolRules.getOrDefault(tool, agentRule)).filter(rule -> rule != null)
                .min(Comparator.comparing(DeadlineRule::span));
    }

    /** The deadline of an input form of this tool: its own rule, else the agent's when that cancels. */
    public Optional<DeadlineRule> forInput(String tool) {
        DeadlineRule rule = toolRules.getOrDefault(tool,
                agentRule != null && agentRule.action() == DeadlineAction.CANCEL ? agentRule : null);
        return Optional.ofNullable(rule).filter(found -> found.action() == DeadlineAction.CANCEL);
    }

    /** The deadline of a paused run's card. */
    public Optional<DeadlineRule> forPause(PausedState state) {
        return state.status() == RunStatus.WAITING_FOR_INPUT ? forInput(state.inputCall().call().name())
                : forApproval(state.waitingToolNames());
    }

    /**
     * Reads the deadline fields of an agent entry (absent fields: no deadline, deny, admin).
     *
     * @throws IllegalArgumentException naming the field and the bad value
     */
    public static DecisionDeadlines read(JsonNode entry) {
        DeadlineRule agentRule = rule("", entry);
        Map<String, DeadlineRule> tools = new TreeMap<>();
        JsonNode perTool = entry.get("toolDeadlines");
        if (perTool != null && !perTool.isNull()) {
            if (!perTool.isObject()) {
                throw new IllegalArgumentException("toolDeadlines must be an object of tool names, each with"
                        + " decisionDeadline and onDeadline, got " + perTool);
            }
            for (Iterator<Map.Entry<String, JsonNode>> fields = perTool.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> tool = fields.next();
                String prefix = "toolDeadlines.\"" + tool.getKey() + "\".";
                if (!tool.getValue().isObject()) {
                    throw new IllegalArgumentException(prefix.substring(0, prefix.length() - 1) + " must be an"
                            + " object with decisionDeadline and onDeadline, got " + tool.getValue());
                }
                tool.getValue().fieldNames().forEachRemaining(field -> {
                    if (!field.equals("decisionDeadline") && !field.equals("onDeadline")) {
                        throw new IllegalArgumentException(prefix + field + " is not a field of a tool's deadline;"
                                + " expected decisionDeadline, onDeadline");
                    }
                });
                DeadlineRule rule = rule(prefix, tool.getValue());
                if (rule == null) {
                    throw new IllegalArgumentException(prefix + "decisionDeadline is required");
                }
                tools.put(tool.getKey(), rule);
            }
        }
        return new DecisionDeadlines(agentRule, tools, role(entry.get("escalationRole")));
    }

    private static DeadlineRule rule(String prefix, JsonNode node) {
        String span = text(prefix + "decisionDeadline", node.get("decisionDeadline"));
        String action = text(prefix + "onDeadline", node.get("onDeadline"));
        if (span == null) {
            if (action != null) {
                throw new IllegalArgumentException(prefix + "onDeadline \"" + action + "\" needs a "
                        + prefix + "decisionDeadline");
            }
            return null;
        }
        return new DeadlineRule(DeadlineRule.parseSpan(prefix + "decisionDeadline", span),
                action == null ? DeadlineAction.DENY : DeadlineAction.fromCode(prefix + "onDeadline", action));
    }

    private static Role role(JsonNode node) {
        String code = text("escalationRole", node);
        if (code == null) {
            return Role.ADMIN;
        }
        // a person's role: a worker's login has no inbox to list an escalated card in
        List<Role> people = List.of(Role.OPERATOR, Role.SUPERVISOR, Role.ADMIN);
        return people.stream().filter(role -> role.name().toLowerCase(Locale.ROOT).equals(code))
                .findFirst().orElseThrow(() -> new IllegalArgumentException("escalationRole must be one of "
                        + people.stream().map(role -> role.name().toLowerCase(Locale.ROOT))
                        .collect(Collectors.joining(", ")) + ", got \"" + code + "\""));
    }

    private static String text(String field, JsonNode value) {
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw new IllegalArgumentException(field + " must be a string, got " + value);
        }
        return value.textValue();
    }

    /** Writes the fields that differ from no deadline into an agent entry, as {@link #read} reads them. */
    public void writeTo(ObjectNode entry) {
        if (agentRule != null) {
            entry.put("decisionDeadline", DeadlineRule.formatSpan(agentRule.span()))
                    .put("onDeadline", agentRule.action().code());
        }
        if (escalationRole != Role.ADMIN) {
            entry.put("escalationRole", escalationRole.name().toLowerCase(Locale.ROOT));
        }
        if (!toolRules.isEmpty()) {
            ObjectNode tools = entry.putObject("toolDeadlines");
            new TreeMap<>(toolRules).forEach((tool, rule) -> tools.putObject(tool)
                    .put("decisionDeadline", DeadlineRule.formatSpan(rule.span()))
                    .put("onDeadline", rule.action().code()));
        }
    }
}
