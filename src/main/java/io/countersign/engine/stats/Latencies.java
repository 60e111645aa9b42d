package io.countersign.engine.stats;

import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The latencies of a set of decisions, as the store counts them: how many, their sum and the largest (exact), and
 * how many fell in each {@linkplain LatencyBuckets bucket}, from which the percentiles are read.
 *
 * @param buckets decisions by bucket, only buckets holding any
 */
public record Latencies(long decisions, long totalMillis, long maxMillis, SortedMap<Integer, Long> buckets) {
    public static final Latencies NONE = new Latencies(0, 0, 0, new TreeMap<>());

    public Latencies {
        Objects.requireNonNull(buckets, "buckets");
        if (decisions < 0 || totalMillis < 0 || maxMillis < 0) {
            throw new IllegalArgumentException("latency counts are never negative");
        }
        long counted = buckets.values().stream().mapToLong(Long::longValue).sum();
        if (counted != decisions) {
            throw new IllegalArgumentException("the buckets hold " + counted + " decisions, not " + decisions);
        }
        buckets = Collections.unmodifiableSortedMap(new TreeMap<>(buckets));
    }

    /** These latencies and another set's together. */
    public Latencies plus(Latencies other) {
        SortedMap<Integer, Long> both = new TreeMap<>(buckets);
        other.buckets.forEach((bucket, count) -> both.merge(bucket, count, Long::sum));
        return new Latencies(decisions + other.decisions, totalMillis + other.totalMillis,
                Math.max(maxMillis, other.maxMillis), both);
    }

    /** One bucket's count, sum and largest latency, added to these. */
    public Latencies plus(int bucket, long count, long total, long max) {
        SortedMap<Integer, Long> one = new TreeMap<>(Map.of(bucket, count));
        return plus(new Latencies(count, total, max, one));
    }

    /**
     * The latency below which the fraction {@code quantile} of the decisions fell (0.5 for the median), read from
     * the buckets: within {@link LatencyBuckets#RELATIVE_ERROR}, never above the largest. Zero for no decisions.
     */
    public Duration percentile(double quantile) {
        if (!(quantile > 0 && quantile <= 1)) {
            throw new IllegalArgumentException("a quantile is above 0 and at most 1, got " + quantile);
        }
        if (decisions == 0) {
            return Duration.ZERO;
        }
        long rank = (long) Math.ceil(quantile * decisions);
        long seen = 0;
        for (Map.Entry<Integer, Long> bucket : buckets.entrySet()) {
            seen += bucket.getValue();
            if (seen >= rank) {
                return Duration.ofMillis(Math.min(LatencyBuckets.estimate(bucket.getKey()), maxMillis));
            }
        }
        return Duration.ofMillis(maxMillis);
    }

    public Duration p50() {
        return percentile(0.5);
    }

    public Duration p90() {
        return percentile(0.9);
    }

    public Duration max() {
        return Duration.ofMillis(maxMillis);
    }

    /** The mean latency, exact to the millisecond; zero for no decisions. */
    public Duration mean() {
        return decisions == 0 ? Duration.ZERO : Duration.ofMillis(Math.round((double) totalMillis / decisions));
    }
}
