package io.countersign.service;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.ApprovalDecision;
import io.countersign.engine.DecisionRecord;
import io.countersign.engine.RunStatus;
import java.time.Instant;
import java.util.List;

/** What a person gives on a card: a verdict for each waiting call, or the typed input the run asked for. */
sealed interface CardAnswer {

    /** What the person needs a role for. */
    Operation operation();

    /** The pause this answer fits. */
    RunStatus awaits();

    /** The decision to commit, as the store keeps it. */
    DecisionRecord record(String runId, String decidedBy, Instant at, String digest);

    /** The verdicts on an approval pause, one for each waiting call. */
    record Verdicts(List<ApprovalDecision.CallVerdict> verdicts) implements CardAnswer {
        @Override
        public Operation operation() {
            return Operation.DECIDE;
        }

        @Override
        public RunStatus awaits() {
            return RunStatus.WAITING_FOR_APPROVAL;
        }

        @Override
        public DecisionRecord record(String runId, String decidedBy, Instant at, String digest) {
            return DecisionRecord.approval(runId, decidedBy, at, digest, verdicts);
        }
    }

    /** The values typed into the form of an input pause. */
    record Input(ObjectNode values) implements CardAnswer {
        @Override
        public Operation operation() {
            return Operation.SUBMIT_INPUT;
        }

        @Override
        public RunStatus awaits() {
            return RunStatus.WAITING_FOR_INPUT;
        }

        @Override
        public DecisionRecord record(String runId, String decidedBy, Instant at, String digest) {
            return DecisionRecord.input(runId, decidedBy, at, digest, values);
        }
    }
}
