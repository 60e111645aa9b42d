package io.countersign.console.insights;

import io.countersign.engine.stats.DecisionLatencyRow;
import io.countersign.engine.stats.Latencies;
import io.countersign.engine.stats.LatencyText;

/** One line of the Insights table, as shown: the name and its figures as text. */
public record InsightRow(String name, long decisions, String p50, String p90, String max, long expired,
                         long escalated) {

    /** The line of a row of the statistics; a name with no person's decision shows dashes for its figures. */
    static InsightRow of(DecisionLatencyRow row) {
        Latencies latencies = row.latencies();
        boolean none = latencies.decisions() == 0;
        return new InsightRow(row.name(), latencies.decisions(), none ? "–" : LatencyText.of(latencies.p50()),
                none ? "–" : LatencyText.of(latencies.p90()), none ? "–" : LatencyText.of(latencies.max()),
                row.expired(), row.escalated());
    }
}
