package io.countersign.engine.port;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A run's wait for a person, as the store recorded it when a decision ended it: from the pause ({@code since}) to
 * the decision ({@code decidedAt}). Codes and names only, never what the card showed or the person wrote.
 *
 * @param outcome   {@code approved}, {@code denied}, {@code mixed} (some calls of the card each way), {@code input}
 *                  (typed input submitted), or a deadline's fallback ({@code expired})
 * @param approvals how many people approved (more than one for a card that needs several)
 * @param fallback  the deadline's fallback that decided ({@code deny}), or {@code null} when a person decided
 */
public record PersonWait(String runId, String agent, String outcome, String decidedBy, int approvals,
                         String fallback, Instant since, Instant decidedAt) {
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
