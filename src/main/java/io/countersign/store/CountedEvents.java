package io.countersign.store;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongUnaryOperator;

/**
 * The counted values of one transaction's events, gathered for the tables of counts: each event's hour and, per
 * counted column, the number of its value among the distinct values that column took in the transaction. An event
 * costs a few lookups of values a transaction mostly repeats; the rows of counts are made by sorting the events
 * once per stretch of time, so that equal keys lie side by side and the rows come out in the writers' one order.
 */
final class CountedEvents {
    /** Missing values first, as their encoding '' sorts before any '=' value. */
    private static final Comparator<String> VALUE_ORDER = Comparator.nullsFirst(Comparator.naturalOrder());

    /**
     * One row of a table of counts: its stretch of time, an event that holds its values, and how many events it
     * counts.
     */
    record Row(long stretch, int event, long count) {
    }

    private final Values[] columns;
    private long[] hours = new long[64];
    /** The value numbers of each event, a stride of one per column. */
    private int[] numbers;
    private int size;

    CountedEvents(int columnCount) {
        columns = new Values[columnCount];
        Arrays.setAll(columns, column -> new Values());
        numbers = new int[hours.length * columnCount];
    }

    /** Adds an event of the given hour with these values of the counted columns, in order. */
    void add(long hour, String... values) {
        if (values.length != columns.length) {
            throw new IllegalArgumentException("expected " + columns.length + " counted values, got "
                    + values.length);
        }
        if (size == hours.length) {
            hours = Arrays.copyOf(hours, size * 2);
            numbers = Arrays.copyOf(numbers, size * 2 * columns.length);
        }
        hours[size] = hour;
        for (int column = 0; column < columns.length; column++) {
            numbers[size * columns.length + column] = columns[column].number(values[column]);
        }
        size++;
    }

    /**
     * The events in the order of their keys by the stretch {@code ofHour} puts an hour in and then by every
     * column's value in order: the order of the rows of both tables by that stretch, as a table's columns are a
     * leading part of all of them. Every key part is a dense rank, so the events are sorted by a stable counting
     * sort per part, the last part first: a few passes over arrays of ints rather than a comparison of boxed
     * indexes per step (most of the counts' time in Java before).
     */
    Sorted sorted(LongUnaryOperator ofHour) {
        int stride = columns.length + 1;
        long[] stretches = new long[size];
        for (int event = 0; event < size; event++) {
            stretches[event] = ofHour.applyAsLong(hours[event]);
        }
        long[] distinct = distinctSorted(stretches);
        // each event's key: the rank of its stretch, then the rank of each column's value
        int[] ranked = new int[size * stride];
        for (int event = 0; event < size; event++) {
            ranked[event * stride] = Arrays.binarySearch(distinct, stretches[event]);
        }
        int[] bound = new int[stride];
        bound[0] = distinct.length;
        for (int column = 0; column < columns.length; column++) {
            int[] ranks = columns[column].ranks();
            bound[column + 1] = ranks.length;
            for (int event = 0; event < size; event++) {
                ranked[event * stride + column + 1] = ranks[numbers[event * columns.length + column]];
            }
        }
        int[] order = new int[size];
        Arrays.setAll(order, event -> event);
        int[] next = new int[size];
        for (int part = stride - 1; part >= 0; part--) {
            int[] starts = new int[bound[part] + 1];
            for (int event : order) {
                starts[ranked[event * stride + part] + 1]++;
            }
            for (int rank = 0; rank < bound[part]; rank++) {
                starts[rank + 1] += starts[rank];
            }
            for (int event : order) {
                next[starts[ranked[event * stride + part]]++] = event;
            }
            int[] done = order;
            order = next;
            next = done;
        }
        return new Sorted(stretches, ranked, order);
    }

    private static long[] distinctSorted(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int distinct = 0;
        for (int i = 0; i < sorted.length; i++) {
            if (i == 0 || sorted[i] != sorted[i - 1]) {
                sorted[distinct++] = sorted[i];
            }
        }
        return Arrays.copyOf(sorted, distinct);
    }

    /** The events in the order of their keys by one stretch of time. */
    final class Sorted {
        private final long[] stretches;
        /** Per event, a stride of one more than the columns: the stretch's rank, then the values' ranks. */
        private final int[] ranked;
        private final int[] order;

        private Sorted(long[] stretches, int[] ranked, int[] order) {
            this.stretches = stretches;
            this.ranked = ranked;
            this.order = order;
        }

        /** The rows of the table that counts by the first {@code width} columns, in order, each key once. */
        List<Row> rows(int width) {
            int stride = columns.length + 1;
            List<Row> rows = new ArrayList<>();
            int first = 0;
            for (int next = 1; next <= order.length; next++) {
                int a = order[first] * stride;
                if (next == order.length || !Arrays.equals(ranked, a, a + width + 1, ranked,
                        order[next] * stride, order[next] * stride + width + 1)) {
                    rows.add(new Row(stretches[order[first]], order[first], next - first));
                    first = next;
                }
            }
            return rows;
        }
    }

    /** The value a row's events hold in a column, as the event holds it. */
    String value(Row row, int column) {
        return columns[column].values.get(numberOf(row, column));
    }

    /** The value a row's events hold in a column, {@linkplain CountTables#encoded encoded} as stored. */
    String encodedValue(Row row, int column) {
        return columns[column].encoded.get(numberOf(row, column));
    }

    private int numberOf(Row row, int column) {
        return numbers[row.event() * columns.length + column];
    }

    /** The distinct values of one column, numbered as first seen, each encoded once rather than once per row. */
    private static final class Values {
        private final Map<String, Integer> numbers = new HashMap<>();
        private final List<String> values = new ArrayList<>();
        private final List<String> encoded = new ArrayList<>();

        int number(String value) {
            Integer number = numbers.get(value);
            if (number == null) {
                number = values.size();
                numbers.put(value, number);
                values.add(value);
                encoded.add(CountTables.encoded(value));
            }
            return number;
        }

        /** Each number's place among the values in {@link #VALUE_ORDER}: numbers compare as their values do. */
        int[] ranks() {
            Integer[] byValue = new Integer[values.size()];
            Arrays.setAll(byValue, number -> number);
            Arrays.sort(byValue, (a, b) -> VALUE_ORDER.compare(values.get(a), values.get(b)));
            int[] ranks = new int[byValue.length];
            for (int rank = 0; rank < byValue.length; rank++) {
                ranks[byValue[rank]] = rank;
            }
            return ranks;
        }
    }
}
