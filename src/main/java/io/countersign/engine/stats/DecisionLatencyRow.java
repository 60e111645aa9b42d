package io.countersign.engine.stats;

import java.util.Objects;

/**
 * The decisions of one agent, tool or operator over a range: the latencies of the people's decisions, and how
 * many cards expired (decided by the deadline's fallback, which has no latency of its own) or were escalated.
 */
public record DecisionLatencyRow(String name, Latencies latencies, long expired, long escalated) {
    public DecisionLatencyRow {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(latencies, "latencies");
        if (expired < 0 || escalated < 0) {
            throw new IllegalArgumentException("counts are never negative");
        }
    }
}
