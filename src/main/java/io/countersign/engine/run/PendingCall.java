package io.countersign.engine.run;

import io.countersign.engine.Names;
import io.countersign.engine.call.InvocationVerdict;
import io.countersign.engine.call.ToolInvocationDecision;
import io.countersign.engine.call.ToolInvocationTarget;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.tool.ToolPreview;
import java.util.Objects;

/**
 * One call of a paused turn, in the turn's order. {@code call} is the call that will dispatch (after the
 * intent policies' redirect); {@code preview} and {@code target} are captured at the pause ({@code null} when
 * there is none); {@code refusal} is set for a call a pre-approval rule already refused; {@code stale} marks a
 * call whose preview changed since the card was shown; {@code asked} names the declarative rule that asked for a
 * person on a call whose tool runs without one ({@code null} when none did).
 */
public record PendingCall(int index, ToolCall call, Disposition disposition, ToolPreview preview,
                          ToolInvocationTarget target, Refusal refusal, boolean stale, Asked asked) {
    public PendingCall {
        Objects.requireNonNull(call, "call");
        Objects.requireNonNull(disposition, "disposition");
        if ((disposition == Disposition.REFUSED) != (refusal != null)) {
            throw new IllegalArgumentException("call " + index
                    + ": a refusal belongs to a refused call, and a refused call needs one");
        }
    }

    public PendingCall withPreview(ToolPreview newPreview, boolean isStale) {
        return new PendingCall(index, call, disposition, newPreview, target, refusal, isStale, asked);
    }

    /** The approvals this call needs by the rule that asked for it; 1 when no rule did. */
    public int askedApprovals() {
        return asked == null ? 1 : asked.approvals();
    }

    /** A declarative rule asked for a person on this call, and for this many approvals. */
    public record Asked(String ruleIdentifier, int approvals) {
        public Asked {
            Names.requireCode(ruleIdentifier, "rule identifier");
            if (approvals < 1) {
                throw new IllegalArgumentException("a rule asks for at least one approval, got " + approvals);
            }
        }
    }

    /** What the pause decided for a call. */
    public enum Disposition {
        /** Waits for an operator's verdict. */
        AWAITS_APPROVAL,
        /** A pre-approval rule refused it; it stays on the card and is refused whatever happens. */
        REFUSED,
        /** The call that waits for typed input. */
        AWAITS_INPUT,
        /** Needs nobody; it goes through the gates and rules when the turn resumes. */
        RUNS_ON_RESUME,
        /**
         * Needs approval and a person's standing grant gave it at the scan (recorded then as
         * {@code approved_by_grant}); it goes through the gates and rules like any approved call.
         */
        APPROVED_BY_GRANT
    }

    /** A pre-approval rule's refusal, with the explanation shown on the card and passed to the model. */
    public record Refusal(String ruleIdentifier, String reasonCode, String explanation) {
        public Refusal {
            Names.requireCode(ruleIdentifier, "rule identifier");
            Names.requireCode(reasonCode, "reason code");
        }

        static Refusal of(InvocationVerdict verdict) {
            return new Refusal(verdict.ruleIdentifier(), verdict.decision().reasonCode(),
                    verdict.decision().explanation());
        }

        /** The result text the model sees, the same as for a refusal found at execution. */
        public String resultText() {
            return new InvocationVerdict(ToolInvocationDecision.deny(reasonCode, explanation), ruleIdentifier, null)
                    .refusalText();
        }
    }
}
