package io.countersign.console.denials;

import java.time.Duration;
import java.util.Optional;

/** The time ranges of the denial browser: a span back from now, every event, or dates picked by hand. */
public enum TimeRange {
    LAST_HOUR(Duration.ofHours(1)),
    LAST_DAY(Duration.ofDays(1)),
    LAST_7_DAYS(Duration.ofDays(7)),
    LAST_30_DAYS(Duration.ofDays(30)),
    ALL(null),
    CUSTOM(null);

    private final Duration span;

    TimeRange(Duration span) {
        this.span = span;
    }

    /** How far back from now the range reaches; empty for every event and for picked dates. */
    public Optional<Duration> span() {
        return Optional.ofNullable(span);
    }
}
