package io.countersign.engine.stats;

/**
 * The fixed log-scale buckets decision latencies are counted in: eight to each doubling of milliseconds, so a
 * bucket's largest latency is at most 2<sup>1/8</sup> (about 9 %) above its smallest. Bucket 0 holds latencies
 * under a millisecond. A percentile read from the buckets is the geometric middle of its bucket, at most
 * {@link #RELATIVE_ERROR} from the true value (or half a millisecond, whichever is larger), never above the
 * largest latency counted. The bounds are fixed for good: stored counts are numbered by them.
 */
public final class LatencyBuckets {
    /** Buckets to each doubling. */
    static final int PER_DOUBLING = 8;
    /** Latencies up to 2^42 ms (139 years); a longer one counts in the last bucket. */
    private static final int DOUBLINGS = 42;
    /** The most a percentile read from the buckets is off, relative to the true value: 2^(1/16) - 1. */
    public static final double RELATIVE_ERROR = StrictMath.pow(2, 1.0 / (2 * PER_DOUBLING)) - 1;
    /** {@code LOWEST[b]} is the smallest latency in whole milliseconds that bucket {@code b} holds. */
    private static final long[] LOWEST = lowest();

    private LatencyBuckets() {
    }

    private static long[] lowest() {
        long[] lowest = new long[PER_DOUBLING * DOUBLINGS + 1];
        lowest[0] = 0;
        for (int b = 1; b < lowest.length; b++) {
            lowest[b] = (long) StrictMath.ceil(StrictMath.pow(2, (b - 1) / (double) PER_DOUBLING));
        }
        return lowest;
    }

    /** How many buckets there are. */
    public static int count() {
        return LOWEST.length;
    }

    /** The bucket a latency in whole milliseconds falls in. */
    public static int of(long millis) {
        if (millis < 0) {
            throw new IllegalArgumentException("a latency is never negative, got " + millis + " ms");
        }
        // the last bucket whose lowest latency is at or below millis (several small buckets hold none)
        int low = 0;
        int high = LOWEST.length - 1;
        while (low < high) {
            int middle = (low + high + 1) >>> 1;
            if (LOWEST[middle] <= millis) {
                low = middle;
            } else {
                high = middle - 1;
            }
        }
        return low;
    }

    /** The smallest latency bucket {@code b} holds, in milliseconds. */
    public static long lowest(int bucket) {
        return LOWEST[check(bucket)];
    }

    /** The largest latency bucket {@code b} holds, in milliseconds; {@link Long#MAX_VALUE} for the last one. */
    public static long highest(int bucket) {
        check(bucket);
        return bucket == LOWEST.length - 1 ? Long.MAX_VALUE : Math.max(LOWEST[bucket], LOWEST[bucket + 1] - 1);
    }

    /** What a percentile falling in the bucket reads as: the geometric middle of its latencies, in milliseconds. */
    public static long estimate(int bucket) {
        check(bucket);
        if (bucket == 0) {
            return 0;
        }
        long lowest = LOWEST[bucket];
        long highest = bucket == LOWEST.length - 1 ? lowest : highest(bucket);
        return Math.round(StrictMath.sqrt((double) lowest * highest));
    }

    private static int check(int bucket) {
        if (bucket < 0 || bucket >= LOWEST.length) {
            throw new IllegalArgumentException("no latency bucket " + bucket + "; they are 0 to "
                    + (LOWEST.length - 1));
        }
        return bucket;
    }
}
