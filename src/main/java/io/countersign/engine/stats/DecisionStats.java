package io.countersign.engine.stats;

import java.util.List;
import java.util.Objects;

/**
 * How long decisions took over a range, by the query's dimension (most decisions first), with the figures of every
 * decision in the range ({@code total}: each decision once, whatever the dimension), and the cards waiting now.
 */
public record DecisionStats(DecisionStatsQuery query, List<DecisionLatencyRow> rows, DecisionLatencyRow total,
                            WaitingNow waiting) {
    public DecisionStats {
        Objects.requireNonNull(query, "query");
        Objects.requireNonNull(total, "total");
        Objects.requireNonNull(waiting, "waiting");
        rows = List.copyOf(rows);
    }
}
