package io.countersign.engine.run;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Actor;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.PendingCall;
import io.countersign.engine.state.RunStateException;
import io.countersign.engine.tool.InputField;
import io.countersign.engine.tool.InputValidation;
import io.countersign.engine.tool.InvalidInputException;
import io.countersign.engine.tool.SchemaValidator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a person answered to a pause, as it applies to each call of the turn that waited on them. The turn then
 * runs on as any other; a turn that did not pause has {@link #NONE}.
 */
sealed interface PauseAnswer {
    /** The answer of a turn that did not pause: nothing in it waits for anyone. */
    PauseAnswer NONE = new Unpaused();

    /** What becomes of a call that waited for this answer. */
    Step stepFor(PendingCall call);

    /** Why a call may run without a fresh approval: an operator approved it, or it is the input tool. */
    enum Grant {
        NONE,
        APPROVED,
        INPUT
    }

    /**
     * A waiting call either runs, with the grant the answer gave it, or is refused with the text the model sees. A
     * call a person edited runs with their arguments; {@code editedBy} names them ({@code null} when unedited).
     */
    sealed interface Step {
        record Run(ToolCall call, Grant grant, String editedBy) implements Step {
        }

        record Refuse(String resultText) implements Step {
        }
    }

    /** An operator's verdict per waiting call; a denied call is refused with who declined it and why. */
    record Approval(Actor decidedBy, Map<Integer, ApprovalDecision.CallVerdict> verdicts) implements PauseAnswer {
        /**
         * The decision as it applies to this pause.
         *
         * @throws RunStateException when a verdict names a call that does not wait, a call has two verdicts, or a
         *                           waiting call has none
         */
        static Approval of(PausedState state, ApprovalDecision decision) {
            Set<Integer> waiting = new LinkedHashSet<>();
            state.awaitingApproval().forEach(call -> waiting.add(call.index()));
            Map<Integer, ApprovalDecision.CallVerdict> verdicts = new HashMap<>();
            for (ApprovalDecision.CallVerdict verdict : decision.verdicts()) {
                if (!waiting.contains(verdict.index())) {
                    throw new RunStateException("call " + verdict.index() + " of run " + state.runId()
                            + " does not wait for approval");
                }
                if (verdicts.put(verdict.index(), verdict) != null) {
                    throw new RunStateException("call " + verdict.index() + " has two verdicts");
                }
            }
            waiting.removeAll(verdicts.keySet());
            if (!waiting.isEmpty()) {
                throw new RunStateException("calls " + waiting + " of run " + state.runId() + " have no verdict");
            }
            return new Approval(decision.decidedBy(), Map.copyOf(verdicts));
        }

        boolean approves(PendingCall call) {
            ApprovalDecision.CallVerdict verdict = verdicts.get(call.index());
            return verdict != null && verdict.approved();
        }

        /** The event's summary: how many calls were approved (and edited) and how many denied. */
        String summary() {
            return ApprovalDecision.summary(List.copyOf(verdicts.values()));
        }

        @Override
        public Step stepFor(PendingCall call) {
            if (call.disposition() != PendingCall.Disposition.AWAITS_APPROVAL) {
                throw new IllegalStateException("approval pause holds an input call");
            }
            if (approves(call)) {
                ApprovalDecision.CallVerdict verdict = verdicts.get(call.index());
                if (verdict.edited()) {
                    return new Step.Run(call.call().withTarget(call.call().name(), verdict.arguments()),
                            Grant.APPROVED, decidedBy.name());
                }
                return new Step.Run(call.call(), Grant.APPROVED, null);
            }
            String reason = verdicts.get(call.index()).reason();
            String why = reason == null || reason.isBlank() ? "no reason given" : reason.strip();
            return new Step.Refuse("Error: declined by " + decidedBy.name() + ": " + why + ". Nothing was executed.");
        }
    }

    /** A person's values for the input tool; they replace the model's values for the declared fields only. */
    record Input(List<InputField> fields, ObjectNode values) implements PauseAnswer {
        /**
         * The submission as it applies to this pause.
         *
         * @throws InvalidInputException when the values do not fit the input tool's fields
         */
        static Input of(PausedState state, InputSubmission submission, SchemaValidator schemas) {
            List<InputValidation.FieldError> errors = InputValidation.validate(schemas, state.inputFields(),
                    submission.values());
            if (!errors.isEmpty()) {
                throw new InvalidInputException(errors);
            }
            return new Input(state.inputFields(), submission.values());
        }

        @Override
        public Step stepFor(PendingCall call) {
            if (call.disposition() != PendingCall.Disposition.AWAITS_INPUT) {
                throw new IllegalStateException("input pause holds an approval call");
            }
            ObjectNode arguments = InputValidation.overlay(call.call().arguments(), fields, values);
            return new Step.Run(call.call().withTarget(call.call().name(), arguments), Grant.INPUT, null);
        }
    }

    /** See {@link #NONE}. */
    record Unpaused() implements PauseAnswer {
        @Override
        public Step stepFor(PendingCall call) {
            throw new IllegalStateException("a turn that did not pause holds a call that waits");
        }
    }
}
