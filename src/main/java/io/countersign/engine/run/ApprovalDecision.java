package io.countersign.engine.run;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Actor;
import io.countersign.engine.state.PausedState;
import java.util.List;
import java.util.Objects;

/**
 * An operator's decision on an approval pause: a verdict for every call that awaits approval. Denied calls are
 * refused with the operator's name and reason, which the model reads.
 */
public record ApprovalDecision(Actor decidedBy, List<CallVerdict> verdicts) {
    public ApprovalDecision {
        Objects.requireNonNull(decidedBy, "decidedBy");
        verdicts = List.copyOf(verdicts);
    }

    public static ApprovalDecision approveAll(PausedState state, Actor operator) {
        return new ApprovalDecision(operator,
                state.awaitingApproval().stream().map(c -> CallVerdict.approve(c.index())).toList());
    }

    public static ApprovalDecision denyAll(PausedState state, Actor operator, String reason) {
        return new ApprovalDecision(operator,
                state.awaitingApproval().stream().map(c -> CallVerdict.deny(c.index(), reason)).toList());
    }

    /**
     * The decision's summary, as its record and its event say it: how many calls were approved (how many of those
     * with edited arguments) and how many denied. It never holds an argument.
     */
    public static String summary(List<CallVerdict> verdicts) {
        long approved = verdicts.stream().filter(CallVerdict::approved).count();
        long edited = verdicts.stream().filter(CallVerdict::edited).count();
        return "approved " + approved + (edited == 0 ? "" : " (" + edited + " edited)") + ", denied "
                + (verdicts.size() - approved);
    }

    /**
     * One call's verdict; {@code reason} is the operator's reason for a denial ({@code null} when approved);
     * {@code arguments} are the arguments a person put in place of the model's before approving, which are then the
     * call's final arguments ({@code null} when the call runs as the model asked).
     */
    public record CallVerdict(int index, boolean approved, String reason, ObjectNode arguments) {
        public CallVerdict {
            if (arguments != null && !approved) {
                throw new IllegalArgumentException("call " + index + ": only an approved call carries edited"
                        + " arguments");
            }
            arguments = arguments == null ? null : arguments.deepCopy();
        }

        public CallVerdict(int index, boolean approved, String reason) {
            this(index, approved, reason, null);
        }

        @Override
        public ObjectNode arguments() {
            return arguments == null ? null : arguments.deepCopy();
        }

        /** Whether a person changed this call's arguments before approving it. */
        public boolean edited() {
            return arguments != null;
        }

        /** Approves the call with a person's arguments in place of the model's. */
        public static CallVerdict approveEdited(int index, ObjectNode arguments) {
            return new CallVerdict(index, true, null, Objects.requireNonNull(arguments, "arguments"));
        }

        public static CallVerdict approve(int index) {
            return new CallVerdict(index, true, null);
        }

        public static CallVerdict deny(int index, String reason) {
            return new CallVerdict(index, false, reason);
        }
    }
}
