package io.countersign.engine.webhook;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/** What happened to a card, as a webhook subscribes to it and as its CloudEvent's {@code type} names it. */
public enum CardEventType {
    /** A run paused: its card waits for an approval or for typed input. */
    WAITING("waiting"),
    /** A person decided the card. */
    DECIDED("decided"),
    /** No one decided before the deadline: its fallback (deny or cancel) was applied. */
    EXPIRED("expired"),
    /** No one decided before the deadline: the card was escalated and its deadline moved once. */
    ESCALATED("escalated");

    private static final String TYPE_PREFIX = "io.countersign.card.";
    private final String code;

    CardEventType(String code) {
        this.code = code;
    }

    public String code() {
        return code;
    }

    /** The CloudEvent {@code type}, such as {@code io.countersign.card.waiting}. */
    public String cloudEventType() {
        return TYPE_PREFIX + code;
    }

    public static CardEventType fromCode(String code) {
        String wanted = code.strip().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(type -> type.code.equals(wanted)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown webhook event \"" + code.strip()
                        + "\"; the events are " + allCodes()));
    }

    /**
     * The events of a comma-separated list such as {@code waiting,decided}.
     *
     * @throws IllegalArgumentException for an empty list or an unknown name, naming it
     */
    public static Set<CardEventType> parseList(String list) {
        if (list == null || list.isBlank()) {
            throw new IllegalArgumentException("no webhook events given; name one or more of " + allCodes());
        }
        Set<CardEventType> events = EnumSet.noneOf(CardEventType.class);
        for (String each : list.split(",", -1)) {
            if (each.isBlank()) {
                throw new IllegalArgumentException("the webhook events \"" + list + "\" have an empty name between"
                        + " commas; the events are " + allCodes());
            }
            events.add(fromCode(each));
        }
        return events;
    }

    /** The events as a comma-separated list, in this enum's order. */
    public static String listOf(Set<CardEventType> events) {
        return Arrays.stream(values()).filter(events::contains).map(CardEventType::code)
                .collect(Collectors.joining(","));
    }

    private static String allCodes() {
        return Arrays.stream(values()).map(CardEventType::code).collect(Collectors.joining(", "));
    }
}
