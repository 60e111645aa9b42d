package io.countersign.engine.call;

import io.countersign.engine.Names;
import java.util.Objects;
import java.util.Set;

/**
 * The invocation policy's answer for one call: the decision, the identifier of the rule that denied it
 * ({@code null} when allowed, and for a {@code policy_failed} refusal, which no single rule made), and the
 * resolved target ({@code null} when no resolver named one).
 */
public record InvocationVerdict(ToolInvocationDecision decision, String ruleIdentifier,
                                ToolInvocationTarget target) {
    /** Reason codes that report a failure to decide rather than a deliberate refusal. */
    public static final String RULE_FAILED = "rule_failed";
    public static final String HISTORY_INCOMPLETE = "history_incomplete";
    public static final String POLICY_FAILED = "policy_failed";
    private static final Set<String> FAILURE_CODES = Set.of(RULE_FAILED, HISTORY_INCOMPLETE, POLICY_FAILED);

    public InvocationVerdict {
        Objects.requireNonNull(decision, "decision");
        if (decision.denied() && !(ruleIdentifier == null && POLICY_FAILED.equals(decision.reasonCode()))) {
            Names.requireCode(ruleIdentifier, "rule identifier");
        }
    }

    /**
     * The refusal of a call whose target could not be resolved, or whose policy failed as a whole. It names no
     * rule, so it cannot be mistaken for the refusal of a rule, whatever that rule is called.
     */
    public static InvocationVerdict policyFailed() {
        return new InvocationVerdict(ToolInvocationDecision.deny(POLICY_FAILED), null, null);
    }

    public static InvocationVerdict allowed(ToolInvocationTarget target) {
        return new InvocationVerdict(ToolInvocationDecision.allow(), null, target);
    }

    public boolean allowed() {
        return decision.allowed();
    }

    /** A deliberate refusal; a failure refusal ({@code rule_failed} and the like) does not skip a card. */
    public boolean deliberateRefusal() {
        return decision.denied() && !FAILURE_CODES.contains(decision.reasonCode());
    }

    /** The result text the model sees for a call this verdict refused. */
    public String refusalText() {
        String by = ruleIdentifier == null ? "" : "rule: " + ruleIdentifier + ", ";
        String text = "Error: invocation denied (" + by + "reason: " + decision.reasonCode()
                + "). Nothing was executed.";
        return decision.explanation() == null ? text : text + " " + decision.explanation();
    }
}
