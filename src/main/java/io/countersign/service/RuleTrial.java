package io.countersign.service;

import io.countersign.engine.declarative.DeclarativeRule;

/** What a rule does to one call, as a live rule would: the call is not its business, or it matches, or it fails. */
public sealed interface RuleTrial {

    /** The call is another agent's or gateway profile's than the rule's scope names: the rule is not asked. */
    record OutOfScope() implements RuleTrial {
    }

    /** The condition is false for the call: the rule lets it be. */
    record NoMatch() implements RuleTrial {
    }

    /** The condition is true for the call: the rule's action (deny, or ask for people) applies. */
    record Matches(DeclarativeRule.Action action) implements RuleTrial {
    }

    /**
     * The condition cannot be evaluated for the call (a missing key, a value of the wrong type), for this reason:
     * a live rule refuses it {@code rule_failed}.
     */
    record Fails(String reason) implements RuleTrial {
    }
}
