package io.countersign.service;

import io.countersign.engine.Actor;
import io.countersign.engine.port.ActorDirectory;
import io.countersign.engine.port.DecisionStatistics;
import io.countersign.engine.stats.DecisionStats;
import io.countersign.engine.stats.DecisionStatsQuery;
import java.time.Clock;
import java.util.Objects;

/** The decision statistics over the store's counts, with the role check. */
public final class DefaultDecisionStatsService implements DecisionStatsService {
    private final DecisionStatistics statistics;
    private final Permissions permissions;
    private final Clock clock;

    public DefaultDecisionStatsService(DecisionStatistics statistics, ActorDirectory users, Clock clock) {
        this.statistics = Objects.requireNonNull(statistics, "statistics");
        this.permissions = new Permissions(users);
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public DecisionStats decisions(Actor actor, DecisionStatsQuery query) {
        Objects.requireNonNull(query, "query");
        permissions.requireNow(actor, Operation.VIEW_DECISION_STATS);
        return new DecisionStats(query, statistics.latencies(query), statistics.total(query),
                statistics.waitingNow(clock.instant()));
    }
}
