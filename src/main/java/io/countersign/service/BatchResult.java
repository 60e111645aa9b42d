package io.countersign.service;

import io.countersign.engine.port.DecisionResult;
import java.util.List;

/**
 * What became of each card of a batch, in the plan's order. Cards decided elsewhere meanwhile, and cards that
 * changed since the plan was read, are named and stay as they are (a changed card still waits); nothing was
 * decided for them.
 */
public record BatchResult(List<Outcome> outcomes) {
    public BatchResult {
        outcomes = List.copyOf(outcomes);
    }

    /** One card's answer: the service's, or why it could not be sent ({@code failure}, with no result). */
    public record Outcome(String runId, String agent, DecisionResult result, String failure) {
        /** Decided by this batch (its calls ran or were refused as decided). */
        public boolean done() {
            return result instanceof DecisionResult.Done;
        }

        /** Counted towards a card that needs several approvals; it waits for the others. */
        public boolean counted() {
            return result instanceof DecisionResult.PartlyApproved;
        }

        /** Someone else decided it first, or it no longer waits. */
        public boolean decidedElsewhere() {
            return result instanceof DecisionResult.AlreadyDecided || result instanceof DecisionResult.NotWaiting;
        }

        /** It changed since the plan was read: nothing was decided and it still waits. */
        public boolean changed() {
            return result instanceof DecisionResult.Stale;
        }
    }

    public List<Outcome> done() {
        return outcomes.stream().filter(Outcome::done).toList();
    }

    public List<Outcome> counted() {
        return outcomes.stream().filter(Outcome::counted).toList();
    }

    public List<Outcome> decidedElsewhere() {
        return outcomes.stream().filter(Outcome::decidedElsewhere).toList();
    }

    public List<Outcome> changed() {
        return outcomes.stream().filter(Outcome::changed).toList();
    }

    /** Refused for a reason of their own (four eyes, a role, a server), or not sent at all. */
    public List<Outcome> refused() {
        return outcomes.stream().filter(outcome -> !outcome.done() && !outcome.counted()
                && !outcome.decidedElsewhere() && !outcome.changed()).toList();
    }
}
