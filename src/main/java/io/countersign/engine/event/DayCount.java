package io.countersign.engine.event;

import java.time.LocalDate;

/** How many events fell on one day. */
public record DayCount(LocalDate day, long count) {
}
