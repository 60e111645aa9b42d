package io.countersign.console.denials;

import java.text.NumberFormat;
import java.util.Locale;
import javafx.scene.chart.NumberAxis;
import javafx.util.StringConverter;

/**
 * Ranges a chart's axis of counts from the largest count: from zero to a round bound above it, in at most six
 * round steps (1, 2 or 5 times a power of ten), labelled as whole numbers. JavaFX's own auto-ranging tries tick
 * unit after tick unit, measuring every label of each, at every layout of the chart; with four charts that search
 * was the largest part of showing new counts.
 */
final class CountAxis {
    private static final int STEPS = 5;

    private CountAxis() {
    }

    /** Makes {@code axis} range itself by {@link #fit} from now on, with whole-number labels in {@code locale}. */
    static void prepare(NumberAxis axis, Locale locale) {
        NumberFormat whole = NumberFormat.getIntegerInstance(locale);
        axis.setAutoRanging(false);
        axis.setLowerBound(0);
        axis.setTickLabelFormatter(new StringConverter<>() {
            @Override
            public String toString(Number count) {
                return whole.format(count.longValue());
            }

            @Override
            public Number fromString(String text) {
                throw new UnsupportedOperationException("axis labels are not read back");
            }
        });
        fit(axis, 0);
    }

    /** Sets the axis to show counts from zero up to {@code largest}. */
    static void fit(NumberAxis axis, long largest) {
        long step = step(largest);
        axis.setTickUnit(step);
        axis.setUpperBound(upperBound(largest, step));
    }

    /** The round step that divides zero to {@code largest} into at most about five ticks; at least 1. */
    static long step(long largest) {
        if (largest <= STEPS) {
            return 1;
        }
        double raw = (double) largest / STEPS;
        long magnitude = (long) Math.pow(10, Math.floor(Math.log10(raw)));
        double residual = raw / magnitude;
        long nice = residual <= 1 ? 1 : residual <= 2 ? 2 : residual <= 5 ? 5 : 10;
        return nice * magnitude;
    }

    /** The first multiple of {@code step} above {@code largest}, so that the largest never touches the edge. */
    static long upperBound(long largest, long step) {
        return (Math.max(0, largest) / step + 1) * step;
    }
}
