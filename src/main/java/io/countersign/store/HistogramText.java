package io.countersign.store;

import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * How a latency histogram is kept in a text column (migration V18): {@code bucket:count} pairs, comma-separated,
 * by bucket, only buckets holding any; {@code 7:2,12:1}.
 */
final class HistogramText {
    private HistogramText() {
    }

    static String of(SortedMap<Integer, Long> buckets) {
        StringBuilder text = new StringBuilder();
        for (Map.Entry<Integer, Long> bucket : buckets.entrySet()) {
            if (text.length() > 0) {
                text.append(',');
            }
            text.append(bucket.getKey()).append(':').append(bucket.getValue());
        }
        return text.toString();
    }

    /** Adds the counts of the text to {@code into}. */
    static SortedMap<Integer, Long> addTo(SortedMap<Integer, Long> into, String text) {
        if (text.isEmpty()) {
            return into;
        }
        int at = 0;
        while (at < text.length()) {
            int colon = text.indexOf(':', at);
            int comma = text.indexOf(',', colon);
            int end = comma < 0 ? text.length() : comma;
            if (colon < 0) {
                throw new IllegalArgumentException("a stored latency histogram is damaged: \"" + text + "\"");
            }
            into.merge(Integer.parseInt(text, at, colon, 10), Long.parseLong(text, colon + 1, end, 10), Long::sum);
            at = end + 1;
        }
        return into;
    }

    static SortedMap<Integer, Long> parse(String text) {
        return addTo(new TreeMap<>(), text);
    }
}
