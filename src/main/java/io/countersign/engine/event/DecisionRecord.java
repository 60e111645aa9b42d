package io.countersign.engine.event;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.run.ApprovalDecision;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A committed decision on a paused run: who, when, which kind, the digest of the card that was decided, a
 * summary ("approved 2, denied 1"), and what is needed to carry it out again after a crash: the verdicts of an
 * approval (with the arguments of the calls a person edited), or the values of an input. The values stay with the run; they never go into a governance event.
 */
public record DecisionRecord(String runId, String decidedBy, Instant decidedAt, Kind kind, String digest,
                             String summary, List<ApprovalDecision.CallVerdict> verdicts, ObjectNode input) {
    public DecisionRecord {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(decidedBy, "decidedBy");
        Objects.requireNonNull(decidedAt, "decidedAt");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(digest, "digest");
        verdicts = verdicts == null ? List.of() : List.copyOf(verdicts);
        input = input == null ? null : input.deepCopy();
        if ((kind == Kind.INPUT) != (input != null)) {
            throw new IllegalArgumentException("an input decision, and only an input decision, carries input values");
        }
    }

    public static DecisionRecord approval(String runId, String decidedBy, Instant at, String digest,
                                          List<ApprovalDecision.CallVerdict> verdicts) {
        return new DecisionRecord(runId, decidedBy, at, Kind.APPROVAL, digest, ApprovalDecision.summary(verdicts),
                verdicts, null);
    }

    public static DecisionRecord input(String runId, String decidedBy, Instant at, String digest, ObjectNode values) {
        return new DecisionRecord(runId, decidedBy, at, Kind.INPUT, digest, "input submitted", List.of(), values);
    }

    @Override
    public ObjectNode input() {
        return input == null ? null : input.deepCopy();
    }

    @Override
    public String toString() {
        return "DecisionRecord[" + runId + " " + kind + " by " + decidedBy + " at " + decidedAt + ": " + summary + "]";
    }

    /** What was decided. */
    public enum Kind {
        APPROVAL,
        INPUT
    }
}
