package io.countersign.engine.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class LatenciesTest {

    @Test
    void everyLatencyFallsInTheBucketWhoseBoundsHoldItAndReadsWithinTheError() {
        for (long millis = 0; millis < 3_000_000; millis += millis < 5_000 ? 1 : 997) {
            int bucket = LatencyBuckets.of(millis);
            assertThat(LatencyBuckets.lowest(bucket)).isLessThanOrEqualTo(millis);
            assertThat(LatencyBuckets.highest(bucket)).isGreaterThanOrEqualTo(millis);
            assertThat((double) Math.abs(LatencyBuckets.estimate(bucket) - millis))
                    .isLessThanOrEqualTo(millis * LatencyBuckets.RELATIVE_ERROR + 0.5);
        }
        assertThat(LatencyBuckets.of(Long.MAX_VALUE)).isEqualTo(LatencyBuckets.count() - 1);
        assertThat(LatencyBuckets.RELATIVE_ERROR).isBetween(0.044, 0.0444);
    }

    @Test
    void percentilesAreReadByNearestRankAndNeverAboveTheLargest() {
        Latencies latencies = Latencies.NONE;
        for (long millis = 1; millis <= 100; millis++) {
            latencies = latencies.plus(LatencyBuckets.of(millis * 1000), 1, millis * 1000, millis * 1000);
        }
        assertThat(latencies.decisions()).isEqualTo(100);
        assertThat(latencies.mean()).isEqualTo(Duration.ofMillis(50_500));
        assertThat(latencies.p50().toMillis()).isBetween(47_800L, 52_200L);
        assertThat(latencies.p90().toMillis()).isBetween(86_000L, 94_000L);
        assertThat(latencies.percentile(1.0)).isLessThanOrEqualTo(Duration.ofSeconds(100));
        assertThat(Latencies.NONE.p90()).isEqualTo(Duration.ZERO);
    }

    @Test
    void badInputsAreNamed() {
        assertThatThrownBy(() -> LatencyBuckets.of(-1)).hasMessage("a latency is never negative, got -1 ms");
        assertThatThrownBy(() -> Latencies.NONE.percentile(0)).hasMessage("a quantile is above 0 and at most 1,"
                + " got 0.0");
        assertThatThrownBy(() -> LatencyBuckets.lowest(LatencyBuckets.count())).hasMessageStartingWith(
                "no latency bucket");
    }
}
