package io.countersign.service;

import io.countersign.engine.Actor;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;

/**
 * The orders the inbox lists in. Both put first the escalated cards the viewer holds the escalation role of.
 */
public enum InboxOrder {
    /** Oldest wait first. */
    WAITING,
    /** Escalated cards first, then the least time left, then the cards without a deadline, oldest wait first. */
    DEADLINE;

    /** The lines in this order for the viewer, at {@code now}. */
    public List<WaitingRun> sorted(List<WaitingRun> lines, Actor viewer, Instant now) {
        Comparator<WaitingRun> order = Comparator.comparing((WaitingRun line) -> !line.escalatedTo(viewer));
        if (this == DEADLINE) {
            order = order.thenComparing(line -> line.deadline() == null || !line.deadline().escalated())
                    .thenComparing(line -> line.deadline() == null ? Duration.ofDays(365_000)
                            : line.deadline().left(now));
        }
        return lines.stream().sorted(order.thenComparing(WaitingRun::waitingSince)).toList();
    }
}
