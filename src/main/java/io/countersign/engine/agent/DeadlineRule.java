package io.countersign.engine.agent;

import java.time.Duration;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How long a card may wait for a decision, and what happens when it waited that long.
 *
 * @param span   from the moment the run pauses; written {@code 90s}, {@code 30m} or {@code 8h}
 * @param action the fallback
 */
public record DeadlineRule(Duration span, DeadlineAction action) {
    private static final Pattern SPAN = Pattern.compile("([1-9][0-9]{0,5})([smh])");

    public DeadlineRule {
        Objects.requireNonNull(span, "span");
        Objects.requireNonNull(action, "action");
        if (span.isNegative() || span.isZero()) {
            throw new IllegalArgumentException("a decision deadline must be positive, got " + span);
        }
    }

    /**
     * A span as the agents file writes it: a whole number of seconds, minutes or hours.
     *
     * @param field where the value was given, named in the error
     * @throws IllegalArgumentException naming the field and the value when it is not such a span
     */
    public static Duration parseSpan(String field, String text) {
        Matcher matcher = text == null ? null : SPAN.matcher(text);
        if (matcher == null || !matcher.matches()) {
            throw new IllegalArgumentException(field + " must be a whole number of seconds, minutes or hours such"
                    + " as 90s, 30m or 8h, got \"" + text + "\"");
        }
        long amount = Long.parseLong(matcher.group(1));
        return switch (matcher.group(2)) {
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            default -> Duration.ofHours(amount);
        };
    }

    /** The span in the agents file's notation, in the largest unit that writes it whole. */
    public static String formatSpan(Duration span) {
        long seconds = span.getSeconds();
        if (seconds % 3600 == 0) {
            return seconds / 3600 + "h";
        }
        return seconds % 60 == 0 ? seconds / 60 + "m" : seconds + "s";
    }
}
