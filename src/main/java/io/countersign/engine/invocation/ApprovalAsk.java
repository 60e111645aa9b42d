package io.countersign.engine.invocation;

import io.countersign.engine.Names;

/**
 * Whether a declarative rule asks for a person on a call whose tool would run without one, and how many people
 * must approve it. A rule whose condition fails on the call says so: the card is shown, and the call is refused
 * {@code rule_failed} by the invocation policy when it would run, so a failing condition never lets a call pass.
 */
public sealed interface ApprovalAsk {
    ApprovalAsk NONE = new None();

    /** No rule asks. */
    record None() implements ApprovalAsk {
    }

    /** The rule that asked first, and the most approvals any asking rule wants. */
    record Asks(String ruleIdentifier, int approvals) implements ApprovalAsk {
        public Asks {
            Names.requireCode(ruleIdentifier, "rule identifier");
            if (approvals < 1) {
                throw new IllegalArgumentException("a rule asks for at least one approval, got " + approvals);
            }
        }
    }

    /** The rule's condition could not be evaluated for the call. */
    record Failed(String ruleIdentifier) implements ApprovalAsk {
        public Failed {
            Names.requireCode(ruleIdentifier, "rule identifier");
        }
    }
}
