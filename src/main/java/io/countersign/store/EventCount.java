package io.countersign.store;

/** How many events share one value of a column (a reason code, a rule, a tool). */
public record EventCount(String key, long count) {
}
