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
     * leading part of all of them.
     */
    Sorted sorted(LongUnaryOperator ofHour) {
        int width = columns.length;
        long[] stretches = new long[size];
        int[] ranked = new int[size * width];
        for (int column = 0; column < width; column++) {
            int[] ranks = columns[column].ranks();
            for (int event = 0; event < size; event++) {
                ranked[event * width + column] = ranks[numbers[event * width + column]];
            }
        }
        Integer[] order = new Integer[size];
        for (int event = 0; event < size; event++) {
            stretches[event] = ofHour.applyAsLong(hours[event]);
            order[event] = event;
        }
        Arrays.sort(order, (a, b) -> compare(stretches, ranked, a, b, width));
        return new Sorted(stretches, ranked, order);
    }

    /** Two events by stretch, then by the ranks of their first {@code width} values. */
    private int compare(long[] stretches, int[] ranked, int a, int b, int width) {
        int byStretch = Long.compare(stretches[a], stretches[b]);
        int stride = columns.length;
        return byStretch != 0 ? byStretch
                : Arrays.compare(ranked, a * stride, a * stride + width, ranked, b * stride, b * stride + width);
    }

    /** The events in the order of their keys by one stretch of time. */
    final class Sorted {
        private final long[] stretches;
        private final int[] ranked;
        private final Integer[] order;

        private Sorted(long[] stretches, int[] ranked, Integer[] order) {
            this.stretches = stretches;
            this.ranked = ranked;
            this.order = order;
        }

        /** The rows of the table that counts by the first {@code width} columns, in order, each key once. */
        List<Row> rows(int width) {
            List<Row> rows = new ArrayList<>();
            int first = 0;
            for (int next = 1; next <= order.length; next++) {
                if (next == order.length || compare(stretches, ranked, order[first], order[next], width) != 0) {
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
