package io.countersign.service;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.event.DecisionRecord;
import io.countersign.engine.run.ApprovalDecision;
import io.countersign.engine.run.RunStatus;
import java.time.Instant;
import java.util.List;

/**
 * What a person gives on a card: a verdict for each waiting call of an approval pause, or the values typed into
 * the form of an input pause.
 *
 * @param verdicts the verdicts, for {@link DecisionRecord.Kind#APPROVAL}
 * @param input    the typed values, for {@link DecisionRecord.Kind#INPUT}
 */
record CardAnswer(DecisionRecord.Kind kind, List<ApprovalDecision.CallVerdict> verdicts, ObjectNode input) {

    static CardAnswer verdicts(List<ApprovalDecision.CallVerdict> verdicts) {
        return new CardAnswer(DecisionRecord.Kind.APPROVAL, verdicts, null);
    }

    static CardAnswer input(ObjectNode values) {
        return new CardAnswer(DecisionRecord.Kind.INPUT, null, values);
    }

    /** What the person needs a role for. */
    Operation operation() {
        return kind == DecisionRecord.Kind.APPROVAL ? Operation.DECIDE : Operation.SUBMIT_INPUT;
    }

    /** The pause this answer fits. */
    RunStatus awaits() {
        return kind == DecisionRecord.Kind.APPROVAL ? RunStatus.WAITING_FOR_APPROVAL : RunStatus.WAITING_FOR_INPUT;
    }

    /** The decision to commit, as the store keeps it. */
    DecisionRecord record(String runId, String decidedBy, Instant at, String digest) {
        return kind == DecisionRecord.Kind.APPROVAL ? DecisionRecord.approval(runId, decidedBy, at, digest, verdicts)
                : DecisionRecord.input(runId, decidedBy, at, digest, input);
    }
}
