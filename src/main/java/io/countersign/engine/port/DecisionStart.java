package io.countersign.engine.port;

import io.countersign.engine.event.GovernanceEvent;
import java.util.List;

/**
 * What carrying out a decision writes before its first call runs, all known before any tool executes: the
 * decision's governance event and the journal intents of the calls it lets run. The store commits them with the
 * decision's claim, so that an approved call costs the claim's commit and the outcome's, and nothing in between.
 *
 * @param decisionEvent the decision's event ({@code approval_decided}, {@code input_submitted}), recorded once per
 *                      decision however often the decision is carried out; {@code null} for none
 * @param intents       the calls about to run, in the order they run
 */
public record DecisionStart(GovernanceEvent decisionEvent, List<ExecutionJournal.Intent> intents) {
    /** Nothing written ahead: the decision alone is claimed. */
    public static final DecisionStart NONE = new DecisionStart(null, List.of());

    public DecisionStart {
        intents = List.copyOf(intents);
    }
}
