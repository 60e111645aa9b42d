package io.countersign.engine.run;

import io.countersign.engine.Actor;
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

    /** One call's verdict; {@code reason} is the operator's reason for a denial ({@code null} when approved). */
    public record CallVerdict(int index, boolean approved, String reason) {
        public static CallVerdict approve(int index) {
            return new CallVerdict(index, true, null);
        }

        public static CallVerdict deny(int index, String reason) {
            return new CallVerdict(index, false, reason);
        }
    }
}
