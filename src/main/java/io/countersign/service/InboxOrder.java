package io.countersign.service;

import io.countersign.engine.port.WaitingRun;
import io.countersign.engine.Actor;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;

/**
 * The orders the inbox lists in. Both put first the escalated cards the viewer holds the escalation role of.
 */
public enum InboxOrder {
    /** Oldest wait first. */
    WAITING,
    /** Escalated cards first, then the nearest deadline (the least time left), then the cards without one. */
    DEADLINE;

    private static final Instant NEVER = Instant.MAX;

    /** The order for this viewer; ties go oldest wait first, then by run id. */
    public Comparator<WaitingRun> comparator(Actor viewer) {
        Comparator<WaitingRun> order = Comparator.comparing((WaitingRun line) -> !line.escalatedTo(viewer));
        if (this == DEADLINE) {
            order = order.thenComparing(line -> line.deadline() == null || !line.deadline().escalated())
                    .thenComparing(line -> line.deadline() == null ? NEVER : line.deadline().due());
        }
        return order.thenComparing(WaitingRun::waitingSince).thenComparing(WaitingRun::runId);
    }

    /** The lines in this order for the viewer. */
    public List<WaitingRun> sorted(List<WaitingRun> lines, Actor viewer) {
        return lines.stream().sorted(comparator(viewer)).toList();
    }
}
