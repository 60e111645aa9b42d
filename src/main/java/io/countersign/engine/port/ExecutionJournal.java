package io.countersign.engine.port;

import io.countersign.engine.call.ToolInvocationObservation;
import java.util.Objects;

/**
 * Port: records an intent before a call executes and its outcome after, so that after a crash a call whose
 * outcome is unknown is shown as such and never re-executed blindly. A journal belongs to one driver of a run (see
 * {@link RunLease}): a write it makes for a run that driver no longer drives is refused with
 * {@link RunTakenOverException}, and the driver stops.
 */
public interface ExecutionJournal {
    ExecutionJournal NONE = new ExecutionJournal() {
        @Override
        public void beforeExecute(String runId, String callId, String toolName) {
        }

        @Override
        public void afterExecute(String runId, String callId, ToolInvocationObservation.Outcome outcome) {
        }
    };

    /**
     * Records durably that the call is about to execute; the last durable write before its tool runs.
     *
     * @throws RunTakenOverException when this journal's driver no longer drives the run: the call must not run
     */
    void beforeExecute(String runId, String callId, String toolName);

    /**
     * Records what the call's execution came to. It may be kept back until {@link #beforeModelCall} or the end of
     * the stretch, which commit it: until then a crash leaves the intent alone, and the call's outcome is unknown,
     * never repeated.
     */
    void afterExecute(String runId, String callId, ToolInvocationObservation.Outcome outcome);

    /**
     * The model is about to be asked for the run's next turn: the outcomes kept back are committed first, so that a
     * crash while the model answers leaves them known.
     *
     * @throws RunTakenOverException when this journal's driver no longer drives the run: the model is not asked
     */
    default void beforeModelCall(String runId) {
    }

    /** A call whose intent is journalled ahead, with the decision that lets it run (see {@link DecisionStart}). */
    record Intent(String callId, String toolName) {
        public Intent {
            Objects.requireNonNull(callId, "callId");
            Objects.requireNonNull(toolName, "toolName");
        }
    }
}
