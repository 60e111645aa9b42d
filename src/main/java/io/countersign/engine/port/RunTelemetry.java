package io.countersign.engine.port;

import io.countersign.engine.chat.TokenUsage;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.state.RunStatus;

/**
 * Port: where a run's trace and measurements go. The loop tells it of each stretch of a run (its start, or its
 * resume after a decision), of each model call and executed call in it, and of every governance event it records;
 * the service tells it when a decision ends a wait for a person. Calls come on the run's thread: an implementation
 * returns at once, never throws, and never makes a run wait for a collector.
 */
public interface RunTelemetry {
    /** Nothing is traced or measured. */
    RunTelemetry NONE = new RunTelemetry() {
        @Override
        public Stretch stretch(StretchStart start) {
            return Stretch.NONE;
        }

        @Override
        public void recorded(GovernanceEvent event) {
        }

        @Override
        public void waited(PersonWait wait) {
        }

        @Override
        public boolean measuresWaits() {
            return false;
        }
    };

    /** A stretch of a run begins in this process; the returned stretch is told what happens in it. */
    Stretch stretch(StretchStart start);

    /** The loop recorded a governance event (a refusal, a denial, an answered question, ...). */
    void recorded(GovernanceEvent event);

    /** A person's decision, or a deadline's fallback, ended a run's wait. */
    void waited(PersonWait wait);

    /**
     * Whether {@link #waited} goes anywhere now; when not, a caller need not read what a wait would report (the
     * approvals kept before a decision are a read of the store).
     */
    default boolean measuresWaits() {
        return true;
    }

    /** One stretch of a run: from its start or resume to its next outcome. */
    interface Stretch {
        Stretch NONE = new Stretch() {
            @Override
            public ModelStep modelCall(String configuration, String provider, String model) {
                return ModelStep.NONE;
            }

            @Override
            public ToolStep toolCall(ToolCall call, boolean remote, String callerTraceParent) {
                return ToolStep.NONE;
            }

            @Override
            public void ended(RunStatus status) {
            }
        };

        /** The loop is about to ask the model of the named configuration (its provider and the provider's model). */
        ModelStep modelCall(String configuration, String provider, String model);

        /**
         * A call passed every check and its tool is about to execute; {@code remote} for an MCP server's tool;
         * {@code callerTraceParent} the W3C {@code traceparent} its caller sent (a gateway's host), or null.
         */
        ToolStep toolCall(ToolCall call, boolean remote, String callerTraceParent);

        /** The stretch ended with the run in this status; {@code null} when it stopped on an error. */
        void ended(RunStatus status);
    }

    /** One model call. */
    interface ModelStep {
        ModelStep NONE = new ModelStep() {
            @Override
            public void answered(TokenUsage usage, String finishReason) {
            }

            @Override
            public void failed(String reasonCode) {
            }
        };

        /** The model answered; {@code finishReason} is {@code tool_calls} when it asked for calls, else {@code stop}. */
        void answered(TokenUsage usage, String finishReason);

        /** The call failed with this reason code ({@code provider_failed}). */
        void failed(String reasonCode);
    }

    /** One executed call. */
    interface ToolStep {
        ToolStep NONE = (outcome, result) -> { };

        /**
         * The tool returned. {@code outcome} is {@code ok}, {@code failed} or {@code unknown} (nobody can tell whether
         * it took effect); {@code result} is the tool's text, which an implementation keeps only when an admin
         * switched on content capture.
         */
        void ended(String outcome, String result);
    }
}
