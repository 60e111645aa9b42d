package io.countersign.engine.rules;

import io.countersign.engine.call.ToolInvocationDecision;
import io.countersign.engine.call.ToolInvocationObservation;
import io.countersign.engine.call.ToolInvocationTarget;
import io.countersign.engine.invocation.ToolInvocationContext;
import io.countersign.engine.invocation.ToolInvocationRule;
import java.util.List;

/**
 * Built-in rule {@code repeat.after.denial}: a call whose tool and target equal those of a call already denied in
 * this run is refused {@code repeated_after_denial}, so the model cannot ask for the same thing again and again.
 * Calls without a target are allowed: there is nothing to compare them by.
 *
 * <p>"Denied" is the history's {@code denied} outcome, which the loop records both for an operator's denial and
 * for a refusal by a rule. So a call refused once by anything is refused again; that is intended, since a
 * refusal that has not changed is not worth a second card.
 *
 * <p>Reads the history, so it needs one that is proven whole: for a run whose history cannot be proven, the
 * policy refuses the call {@code history_incomplete} without asking this rule. Not asked before the approval card.
 */
public final class RepeatAfterDenialRule implements ToolInvocationRule {
    public static final String IDENTIFIER = "repeat.after.denial";
    static final String REPEATED_AFTER_DENIAL = "repeated_after_denial";

    @Override
    public String identifier() {
        return IDENTIFIER;
    }

    @Override
    public boolean requiresCompleteHistory() {
        return true;
    }

    @Override
    public ToolInvocationDecision decide(ToolInvocationContext context) {
        ToolInvocationTarget target = context.target();
        if (target == null) {
            return ToolInvocationDecision.allow();
        }
        List<ToolInvocationObservation> observations = context.history().observations();
        for (int i = 0; i < observations.size(); i++) {
            ToolInvocationObservation observation = observations.get(i);
            if (observation.outcome() == ToolInvocationObservation.Outcome.DENIED
                    && target.equals(observation.target())
                    && context.toolName().equals(observation.toolName())) {
                return ToolInvocationDecision.deny(REPEATED_AFTER_DENIAL, Explanations.explain(REPEATED_AFTER_DENIAL,
                        context.executionContext().locale(), target.identifier()));
            }
        }
        return ToolInvocationDecision.allow();
    }
}
