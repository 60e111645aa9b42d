package io.countersign.engine.stats;

import java.time.Duration;

/** The age bands of the cards waiting now, youngest first; each holds ages from its lower bound on. */
public enum WaitingAge {
    UNDER_MINUTE(Duration.ZERO),
    UNDER_10_MINUTES(Duration.ofMinutes(1)),
    UNDER_HOUR(Duration.ofMinutes(10)),
    UNDER_8_HOURS(Duration.ofHours(1)),
    UNDER_DAY(Duration.ofHours(8)),
    DAY_OR_MORE(Duration.ofDays(1));

    private final Duration from;

    WaitingAge(Duration from) {
        this.from = from;
    }

    /** The youngest age the band holds. */
    public Duration from() {
        return from;
    }

    /** The band of an age. */
    public static WaitingAge of(Duration age) {
        WaitingAge found = UNDER_MINUTE;
        for (WaitingAge band : values()) {
            if (age.compareTo(band.from) >= 0) {
                found = band;
            }
        }
        return found;
    }
}
