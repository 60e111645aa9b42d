package io.countersign.service;

import io.countersign.engine.run.RunStatus;
import io.countersign.engine.tool.InputValidation;
import java.time.Instant;
import java.util.List;

/** What became of a decision on a card (approval verdicts or typed input). Every case is an expected answer. */
public sealed interface DecisionResult {

    /** The decision was committed and the run resumed; {@code status} is where it stands now. */
    record Done(String runId, RunStatus status, int approved, int denied) implements DecisionResult {
    }

    /** The card changed since the person saw it; nothing executed. Reload and decide again. */
    record Stale(String runId, String currentDigest) implements DecisionResult {
    }

    /**
     * Someone else decided first; nothing executed on this decision. {@code approved} and {@code denied} count the
     * winner's verdicts, both 0 when the winner sent typed input.
     */
    record AlreadyDecided(String runId, String decidedBy, Instant decidedAt, String summary, int approved,
                          int denied) implements DecisionResult {
    }

    /** The person started this run and its agent requires someone else to approve; they may deny. */
    record FourEyes(String runId) implements DecisionResult {
    }

    /** The person may not take this decision, for the given reason (a role, or a write they could not run). */
    record NotPermitted(String runId, String reason) implements DecisionResult {
    }

    /** The typed input does not fit the form; the run still waits. */
    record InvalidInput(String runId, List<InputValidation.FieldError> errors) implements DecisionResult {
        public InvalidInput {
            errors = List.copyOf(errors);
        }
    }

    /** The run does not wait for this kind of decision (it finished, or waits for the other kind). */
    record NotWaiting(String runId, RunStatus status) implements DecisionResult {
    }
}
