package io.countersign.engine.stats;

import java.time.LocalDate;
import java.util.Objects;

/**
 * Which decision statistics to read: whole UTC days from {@code firstDay} through {@code lastDay} (either
 * {@code null} for no bound), grouped by {@code by}. The store counts by UTC day, so a range is always whole days.
 */
public record DecisionStatsQuery(LocalDate firstDay, LocalDate lastDay, StatsDimension by) {
    public DecisionStatsQuery {
        Objects.requireNonNull(by, "by");
        if (firstDay != null && lastDay != null && lastDay.isBefore(firstDay)) {
            throw new IllegalArgumentException("the range ends on " + lastDay + ", before it starts on " + firstDay);
        }
    }

    /** Every day counted. */
    public static DecisionStatsQuery all(StatsDimension by) {
        return new DecisionStatsQuery(null, null, by);
    }
}
