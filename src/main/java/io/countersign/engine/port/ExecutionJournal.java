package io.countersign.engine.port;

import io.countersign.engine.invocation.ToolInvocationObservation;

/**
 * Port: records an intent before a call executes and its outcome after, so that after a crash a call whose
 * outcome is unknown is shown as such and never re-executed blindly.
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

    void beforeExecute(String runId, String callId, String toolName);

    void afterExecute(String runId, String callId, ToolInvocationObservation.Outcome outcome);
}
