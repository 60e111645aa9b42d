package io.countersign.engine.port;

import io.countersign.engine.stats.DecisionLatencyRow;
import io.countersign.engine.stats.DecisionStatsQuery;
import io.countersign.engine.stats.WaitingNow;
import java.time.Instant;
import java.util.List;

/**
 * Port: how long decisions take, from counts the store keeps by UTC day in the transaction of each decision and
 * escalation (never by reading the decisions back), and the cards waiting now.
 */
public interface DecisionStatistics {

    /** The decisions of the query's days by its dimension, most decisions first, then by name. */
    List<DecisionLatencyRow> latencies(DecisionStatsQuery query);

    /** Every decision of the query's days, each once, whatever the query's dimension. */
    DecisionLatencyRow total(DecisionStatsQuery query);

    /** The cards waiting at {@code now}, by age. */
    WaitingNow waitingNow(Instant now);
}
