package io.countersign.engine;

import java.util.Objects;
import java.util.Set;

/**
 * The invocation policy's answer for one call: the decision, the identifier of the rule that denied it
 * ({@code null} when allowed), and the resolved target ({@code null} when no resolver named one).
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
        if (decision.denied()) {
            Names.requireCode(ruleIdentifier, "rule identifier");
        }
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
        String text = "Error: invocation denied (rule: " + ruleIdentifier + ", reason: " + decision.reasonCode()
                + "). Nothing was executed.";
        return decision.explanation() == null ? text : text + " " + decision.explanation();
    }
}
