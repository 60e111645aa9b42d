package io.countersign.engine;

import java.time.Instant;
import java.util.Objects;

/**
 * A committed decision on a paused run: who, when, which kind, and a summary of the verdicts ("approved 2,
 * denied 1"), never input values or arguments. {@code digest} is the digest of the card that was decided.
 */
public record DecisionRecord(String runId, String decidedBy, Instant decidedAt, Kind kind, String digest,
                             String summary) {
    public DecisionRecord {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(decidedBy, "decidedBy");
        Objects.requireNonNull(decidedAt, "decidedAt");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(digest, "digest");
    }

    /** What was decided. */
    public enum Kind {
        APPROVAL,
        INPUT
    }
}
