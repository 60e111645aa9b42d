package io.countersign.engine.stats;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What decision statistics are grouped by: the run's agent, each tool the card waited on (a card with two tools
 * counts for both), or the person who decided.
 */
public enum StatsDimension {
    AGENT, TOOL, OPERATOR;

    /** As stored and typed: {@code agent}, {@code tool}, {@code operator}. */
    public String code() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<StatsDimension> fromCode(String code) {
        return Arrays.stream(values()).filter(dimension -> dimension.code().equals(code)).findFirst();
    }

    /** The codes, for messages: {@code agent, tool or operator}. */
    public static String choices() {
        String all = Arrays.stream(values()).map(StatsDimension::code).collect(Collectors.joining(", "));
        int last = all.lastIndexOf(", ");
        return all.substring(0, last) + " or " + all.substring(last + 2);
    }
}
