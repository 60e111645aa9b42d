package io.countersign.engine.event;

import java.time.Instant;

/** A retention purge the audit chain recorded and the verification found whole: not a gap. */
public record AuditPurge(long seq, Instant at, String by, Instant before, long events) {
    /** {@code purge of N events before T by NAME}. */
    public String sentence() {
        return "purge of " + events + (events == 1 ? " event" : " events") + " before " + before + " by " + by
                + " (entry " + seq + ", " + at + ")";
    }
}
