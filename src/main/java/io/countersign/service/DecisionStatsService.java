package io.countersign.service;

import io.countersign.engine.Actor;
import io.countersign.engine.stats.DecisionStats;
import io.countersign.engine.stats.DecisionStatsQuery;

/** How long decisions take, for supervisors and admins ({@link Operation#VIEW_DECISION_STATS}). */
public interface DecisionStatsService {

    /**
     * The decisions of the query's whole UTC days by its dimension, their total, and the cards waiting now.
     *
     * @throws NotPermittedException for anyone but a supervisor or an admin
     */
    DecisionStats decisions(Actor actor, DecisionStatsQuery query);
}
