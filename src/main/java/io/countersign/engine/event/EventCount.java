package io.countersign.engine.event;

/** How many events share one value of a column (a reason code, a rule, a tool). */
public record EventCount(String key, long count) {
}
