package io.countersign.engine.event;

import java.time.Instant;
import java.util.Set;

/**
 * Which governance events to show or count. Every criterion left {@code null} (or empty) matches everything;
 * the criteria given must all match.
 *
 * @param from               earliest event time, inclusive
 * @param until              latest event time, exclusive
 * @param types              any of these types
 * @param reasonCode         exactly this reason code
 * @param ruleId             exactly this rule
 * @param toolName           exactly this tool
 * @param agentConfiguration exactly this agent configuration
 * @param actor              exactly this actor
 * @param runId              exactly this run
 * @param text               appears, ignoring case, in the type, reason code, rule, tool, agent configuration,
 *                           actor, model or run id
 */
public record EventFilter(Instant from, Instant until, Set<EventType> types, String reasonCode, String ruleId,
                          String toolName, String agentConfiguration, String actor, String runId, String text) {
    public static final int MAX_TEXT_LENGTH = 200;
    private static final EventFilter ALL = new EventFilter(null, null, Set.of(), null, null, null, null, null, null,
            null);

    public EventFilter {
        if (from != null && until != null && !from.isBefore(until)) {
            throw new IllegalArgumentException("the time range is empty: " + from + " is not before " + until);
        }
        types = types == null ? Set.of() : Set.copyOf(types);
        text = text == null || text.isBlank() ? null : text.strip();
        if (text != null && text.length() > MAX_TEXT_LENGTH) {
            throw new IllegalArgumentException("the search text is " + text.length() + " characters long; at most "
                    + MAX_TEXT_LENGTH + " are searched");
        }
    }

    /** Every event. */
    public static EventFilter all() {
        return ALL;
    }

    /** Events from {@code start} (inclusive) until {@code end} (exclusive); either may be {@code null}. */
    public EventFilter between(Instant start, Instant end) {
        return new EventFilter(start, end, types, reasonCode, ruleId, toolName, agentConfiguration, actor, runId,
                text);
    }

    public EventFilter ofTypes(Set<EventType> kinds) {
        return new EventFilter(from, until, kinds, reasonCode, ruleId, toolName, agentConfiguration, actor, runId,
                text);
    }

    public EventFilter withReasonCode(String code) {
        return new EventFilter(from, until, types, code, ruleId, toolName, agentConfiguration, actor, runId, text);
    }

    public EventFilter withRuleId(String rule) {
        return new EventFilter(from, until, types, reasonCode, rule, toolName, agentConfiguration, actor, runId,
                text);
    }

    public EventFilter withToolName(String tool) {
        return new EventFilter(from, until, types, reasonCode, ruleId, tool, agentConfiguration, actor, runId, text);
    }

    public EventFilter withAgentConfiguration(String agent) {
        return new EventFilter(from, until, types, reasonCode, ruleId, toolName, agent, actor, runId, text);
    }

    public EventFilter withActor(String name) {
        return new EventFilter(from, until, types, reasonCode, ruleId, toolName, agentConfiguration, name, runId,
                text);
    }

    public EventFilter withRunId(String run) {
        return new EventFilter(from, until, types, reasonCode, ruleId, toolName, agentConfiguration, actor, run,
                text);
    }

    public EventFilter withText(String search) {
        return new EventFilter(from, until, types, reasonCode, ruleId, toolName, agentConfiguration, actor, runId,
                search);
    }
}
