package io.countersign.engine.grant;

import io.countersign.engine.call.ToolInvocationTarget;
import io.countersign.engine.chat.ToolCall;
import java.time.Instant;
import java.util.Objects;

/**
 * A standing approval a person made from a card: the agent may make calls of this tool that the scope covers
 * without a pause, until the grant expires or is revoked. A grant for the rest of a run names that run and has no
 * expiry. {@code uses} counts the calls it approved.
 */
public record Grant(String id, String agent, String tool, GrantScope scope, GrantSpan span, String runId,
                    String grantedBy, Instant grantedAt, Instant expiresAt, int uses, String revokedBy,
                    Instant revokedAt) {
    public Grant {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(agent, "agent");
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(span, "span");
        Objects.requireNonNull(grantedBy, "grantedBy");
        Objects.requireNonNull(grantedAt, "grantedAt");
        if ((span == GrantSpan.REST_OF_RUN) != (runId != null)) {
            throw new IllegalArgumentException("grant " + id + ": a grant for the rest of a run, and only such a"
                    + " grant, names the run");
        }
        if ((expiresAt == null) != (span == GrantSpan.REST_OF_RUN)) {
            throw new IllegalArgumentException("grant " + id + ": a grant for a span of time expires, one for the"
                    + " rest of a run does not");
        }
    }

    /** Whether the grant still approves calls at {@code now}: not revoked, not expired. */
    public boolean liveAt(Instant now) {
        return revokedAt == null && (expiresAt == null || now.isBefore(expiresAt));
    }

    /**
     * Whether this grant approves the call in this run at {@code now}: the same agent and tool, the call within the
     * scope, the grant live and, for the rest of a run, the same run; and under four eyes never in a run the granter
     * started themselves.
     */
    public boolean approves(String agentName, String runReference, String initiator, boolean fourEyes, ToolCall call,
                            ToolInvocationTarget target, Instant now) {
        if (!liveAt(now) || !agent.equals(agentName) || !tool.equals(call.name())) {
            return false;
        }
        if (runId != null && !runId.equals(runReference)) {
            return false;
        }
        if (fourEyes && grantedBy.equals(initiator)) {
            return false;
        }
        return scope.covers(call, target);
    }
}
