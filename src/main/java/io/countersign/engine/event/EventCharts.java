package io.countersign.engine.event;

import java.util.List;

/**
 * The counts of the events of one filter that the denial browser charts, read together.
 *
 * @param byReason how many events carry each reason code, most first; events without one are left out
 * @param byRule   how many events each rule produced, most first; events without a rule are left out
 * @param byTool   how many events name each tool, most first; events without a tool are left out
 * @param byDay    how many events fell on each day, oldest first; days without events are left out
 */
public record EventCharts(List<EventCount> byReason, List<EventCount> byRule, List<EventCount> byTool,
                          List<DayCount> byDay) {

    public EventCharts {
        byReason = List.copyOf(byReason);
        byRule = List.copyOf(byRule);
        byTool = List.copyOf(byTool);
        byDay = List.copyOf(byDay);
    }

    /** How many events match. */
    public long total() {
        return byDay.stream().mapToLong(DayCount::count).sum();
    }
}
