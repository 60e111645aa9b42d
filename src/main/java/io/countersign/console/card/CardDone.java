package io.countersign.console.card;

import io.countersign.engine.port.DecisionResult;

/**
 * A card the person decided: the run resumed. The window takes the card away, opens the next and says what
 * was done.
 *
 * @param input whether the decision was typed input rather than verdicts
 */
public record CardDone(String runId, String agent, DecisionResult.Done result, boolean input) {
}
