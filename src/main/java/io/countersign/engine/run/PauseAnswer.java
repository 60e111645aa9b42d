package io.countersign.engine.run;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.PendingCall;
import io.countersign.engine.state.RunStateException;
import io.countersign.engine.tool.InputField;
import io.countersign.engine.tool.InputValidation;
import io.countersign.engine.tool.InvalidInputException;
import io.countersign.engine.tool.SchemaValidator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A person's {@link Decision} on a pause, as it applies to each call of the turn that waited on them. The turn then
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

    /** A person's decision as it applies to this pause: a denied call is refused with who declined it and why. */
    record Approval(Decision.Approval decision) implements PauseAnswer {
        /**
         * The decision as it applies to this pause.
         *
         * @throws RunStateException when a verdict names a call that does not wait, a call has two verdicts, or a
         *                           waiting call has none
         */
        static Approval of(PausedState state, Decision.Approval decision) {
            Set<Integer> waiting = new LinkedHashSet<>();
            state.awaitingApproval().forEach(call -> waiting.add(call.index()));
            Set<Integer> given = new HashSet<>();
            for (Decision.CallVerdict verdict : decision.verdicts()) {
                if (!waiting.contains(verdict.index())) {
                    throw new RunStateException("call " + verdict.index() + " of run " + state.runId()
                            + " does not wait for approval");
                }
                if (!given.add(verdict.index())) {
                    throw new RunStateException("call " + verdict.index() + " has two verdicts");
                }
            }
            waiting.removeAll(given);
            if (!waiting.isEmpty()) {
                throw new RunStateException("calls " + waiting + " of run " + state.runId() + " have no verdict");
            }
            return new Approval(decision);
        }

        boolean approves(PendingCall call) {
            return decision.verdictOn(call.index()).map(Decision.CallVerdict::approved).orElse(false);
        }

        /** The event's summary: how many calls were approved (and edited) and how many denied. */
        String summary() {
            return Decision.summary(decision.verdicts());
        }

        @Override
        public Step stepFor(PendingCall call) {
            if (call.disposition() != PendingCall.Disposition.AWAITS_APPROVAL) {
                throw new IllegalStateException("approval pause holds an input call");
            }
            Decision.CallVerdict verdict = decision.verdictOn(call.index()).orElseThrow();
            if (verdict.approved()) {
                if (verdict.edited()) {
                    return new Step.Run(call.call().withTarget(call.call().name(), verdict.arguments()),
                            Grant.APPROVED, decision.decidedBy());
                }
                return new Step.Run(call.call(), Grant.APPROVED, null);
            }
            String reason = verdict.reason();
            String why = reason == null || reason.isBlank() ? "no reason given" : reason.strip();
            return new Step.Refuse("Error: declined by " + decision.decidedBy() + ": " + why
                    + ". Nothing was executed.");
        }
    }

    /** A person's values for the input tool; they replace the model's values for the declared fields only. */
    record Input(List<InputField> fields, Decision.Input decision) implements PauseAnswer {
        /**
         * The submission as it applies to this pause.
         *
         * @throws InvalidInputException when the values do not fit the input tool's fields
         */
        static Input of(PausedState state, Decision.Input decision, SchemaValidator schemas) {
            List<InputValidation.FieldError> errors = InputValidation.validate(schemas, state.inputFields(),
                    decision.values());
            if (!errors.isEmpty()) {
                throw new InvalidInputException(errors);
            }
            return new Input(state.inputFields(), decision);
        }

        @Override
        public Step stepFor(PendingCall call) {
            if (call.disposition() != PendingCall.Disposition.AWAITS_INPUT) {
                throw new IllegalStateException("input pause holds an approval call");
            }
            ObjectNode arguments = InputValidation.overlay(call.call().arguments(), fields, decision.values());
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
