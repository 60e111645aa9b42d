package io.countersign.engine.run;

import io.countersign.engine.Names;
import io.countersign.engine.call.ToolInvocationHistory;
import io.countersign.engine.chat.ChatMessage;
import java.util.List;
import java.util.Objects;

/**
 * How a stretch of the tool loop ended. A pause is a result, not an exception: {@link WaitingForApproval} and
 * {@link WaitingForInput} carry the {@link PausedState} to resume from.
 */
public sealed interface RunOutcome {

    String runId();

    RunStatus status();

    List<ChatMessage> transcript();

    ToolInvocationHistory history();

    RunCounters counters();

    /** The model answered without tool calls; {@code truncated} when the round cap forced that last answer. */
    record Completed(String runId, String answer, boolean truncated, List<ChatMessage> transcript,
                     ToolInvocationHistory history, RunCounters counters) implements RunOutcome {
        public Completed {
            Objects.requireNonNull(answer, "answer");
            transcript = List.copyOf(transcript);
        }

        @Override
        public RunStatus status() {
            return RunStatus.COMPLETED;
        }
    }

    /** A pause: the run waits for a person, and {@link #state()} is what it resumes from. */
    sealed interface Paused extends RunOutcome {

        PausedState state();

        @Override
        default String runId() {
            return state().runId();
        }

        @Override
        default RunStatus status() {
            return state().status();
        }

        @Override
        default List<ChatMessage> transcript() {
            return state().transcript();
        }

        @Override
        default ToolInvocationHistory history() {
            return state().history();
        }

        @Override
        default RunCounters counters() {
            return state().counters();
        }
    }

    /** A turn's calls wait for an operator's decision; nothing in the turn has executed. */
    record WaitingForApproval(PausedState state) implements Paused {
        public WaitingForApproval {
            if (state.status() != RunStatus.WAITING_FOR_APPROVAL) {
                throw new IllegalArgumentException("state is " + state.status().code());
            }
        }
    }

    /** A turn waits for a person's typed input; nothing in the turn has executed. */
    record WaitingForInput(PausedState state) implements Paused {
        public WaitingForInput {
            if (state.status() != RunStatus.WAITING_FOR_INPUT) {
                throw new IllegalArgumentException("state is " + state.status().code());
            }
        }
    }

    /**
     * The run could not go on. {@code reasonCode} is stable ({@code provider_failed}); the message says what
     * happened for a person. The transcript is kept as it was when the failure happened.
     */
    record Failed(String runId, String reasonCode, String message, List<ChatMessage> transcript,
                  ToolInvocationHistory history, RunCounters counters) implements RunOutcome {
        public Failed {
            Names.requireCode(reasonCode, "failure reason");
            transcript = List.copyOf(transcript);
        }

        @Override
        public RunStatus status() {
            return RunStatus.FAILED;
        }
    }

    /**
     * A call went out and its outcome is unknown, such as a remote server that went away while it ran: the stretch
     * stops there, and the run stays flagged with the call for a person to settle, never retried on its own.
     * {@code reason} says what happened, for a person.
     */
    record OutcomeUnknown(String runId, String callId, String reason, List<ChatMessage> transcript,
                          ToolInvocationHistory history, RunCounters counters) implements RunOutcome {
        public OutcomeUnknown {
            Objects.requireNonNull(callId, "callId");
            Objects.requireNonNull(reason, "reason");
            transcript = List.copyOf(transcript);
        }

        @Override
        public RunStatus status() {
            return RunStatus.OUTCOME_UNKNOWN;
        }
    }

    /** Someone cancelled the run; every call of the last turn that had not run was answered as cancelled. */
    record Cancelled(String runId, List<ChatMessage> transcript, ToolInvocationHistory history,
                     RunCounters counters) implements RunOutcome {
        public Cancelled {
            transcript = List.copyOf(transcript);
        }

        @Override
        public RunStatus status() {
            return RunStatus.CANCELLED;
        }
    }
}
