package io.countersign.engine.stats;

import java.time.Instant;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * The cards waiting at {@code at}, by age band (every band present), and since when the oldest waits
 * ({@code null} for none).
 */
public record WaitingNow(Instant at, Map<WaitingAge, Long> byAge, Instant oldestSince) {
    public WaitingNow {
        Objects.requireNonNull(at, "at");
        EnumMap<WaitingAge, Long> all = new EnumMap<>(WaitingAge.class);
        for (WaitingAge band : WaitingAge.values()) {
            all.put(band, byAge.getOrDefault(band, 0L));
        }
        byAge = Collections.unmodifiableMap(all);
    }

    public long total() {
        return byAge.values().stream().mapToLong(Long::longValue).sum();
    }
}
