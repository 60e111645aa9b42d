package io.countersign.engine.stats;

import java.time.Duration;
import java.util.Locale;

/** A latency as people read it: {@code 850 ms}, {@code 12.4 s}, {@code 3m 05s}, {@code 2h 10m}, {@code 3d 4h}. */
public final class LatencyText {
    private LatencyText() {
    }

    public static String of(Duration latency) {
        long millis = latency.toMillis();
        if (millis < 1000) {
            return millis + " ms";
        }
        if (millis < 60_000) {
            return String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
        }
        long seconds = latency.toSeconds();
        if (seconds < 3600) {
            return String.format(Locale.ROOT, "%dm %02ds", seconds / 60, seconds % 60);
        }
        if (seconds < 86_400) {
            return String.format(Locale.ROOT, "%dh %02dm", seconds / 3600, seconds % 3600 / 60);
        }
        return String.format(Locale.ROOT, "%dd %dh", seconds / 86_400, seconds % 86_400 / 3600);
    }
}
