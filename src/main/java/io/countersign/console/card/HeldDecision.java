package io.countersign.console.card;

import io.countersign.engine.decision.Decision.CallVerdict;
import io.countersign.service.Allowance;
import java.util.List;
import java.util.Objects;

/**
 * Verdicts a person submitted on an approval card, not yet sent: the window holds them for a few seconds, so that
 * Undo can take them back and the card show them again, and then sends them against the card as the person saw it.
 * They are not yet a {@link io.countersign.engine.decision.Decision}: the service makes that of them when it
 * receives them, with who decided and when as it knows them.
 *
 * @param allowance the standing grants the approval makes ("Approve and allow"), or {@code null}
 * @param digest the card's digest as shown: the service refuses the verdicts if the card changed since
 */
public record HeldDecision(String runId, String agent, String digest, List<CallVerdict> verdicts, String reason,
                           Allowance allowance) {
    /** Verdicts without a standing grant. */
    public HeldDecision(String runId, String agent, String digest, List<CallVerdict> verdicts, String reason) {
        this(runId, agent, digest, verdicts, reason, null);
    }

    public HeldDecision {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(agent, "agent");
        Objects.requireNonNull(digest, "digest");
        verdicts = List.copyOf(verdicts);
        if (verdicts.isEmpty()) {
            throw new IllegalArgumentException("a decision on run " + runId + " needs at least one verdict");
        }
    }

    public int approved() {
        return (int) verdicts.stream().filter(CallVerdict::approved).count();
    }

    public int denied() {
        return verdicts.size() - approved();
    }
}
