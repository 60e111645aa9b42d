package io.countersign.engine.port;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A run's wait for a person, as the store recorded it when a decision ended it: from the pause ({@code since}) to
 * the decision ({@code decidedAt}). Codes and names only, never what the card showed or the person wrote.
 *
 * @param outcome   {@code approved}, {@code denied}, {@code mixed} (some calls of the card each way), {@code input}
 *                  (typed input submitted), or {@code expired} (the deadline passed and its fallback decided)
 * @param approvals how many people approved (more than one for a card that needs several)
 * @param deadline  when the card's deadline was due when the wait ended (an Extend or an escalation moves it), or
 *                  {@code null} for a card without one
 * @param fallback  the card's deadline's fallback ({@code deny}, {@code cancel}, {@code escalate}), or {@code null}
 *                  for a card without one
 */
public record PersonWait(String runId, String agent, String outcome, String decidedBy, int approvals,
                         Instant deadline, String fallback, Instant since, Instant decidedAt) {
    public PersonWait {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(agent, "agent");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(decidedBy, "decidedBy");
        Objects.requireNonNull(since, "since");
        Objects.requireNonNull(decidedAt, "decidedAt");
    }

    /** How long the run waited; never negative. */
    public Duration waited() {
        Duration waited = Duration.between(since, decidedAt);
        return waited.isNegative() ? Duration.ZERO : waited;
    }
}
