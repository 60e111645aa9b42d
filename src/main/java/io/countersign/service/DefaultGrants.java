package io.countersign.service;

import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.call.ToolInvocationTarget;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.grant.Grant;
import io.countersign.engine.grant.GrantScope;
import io.countersign.engine.grant.GrantSpan;
import io.countersign.engine.port.ActorDirectory;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.IdGenerator;
import io.countersign.engine.port.StandingGrants;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.run.EditCheck;
import io.countersign.engine.state.PendingCall;
import io.countersign.store.GrantStore;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The standing grants over the store: the use cases of {@link Grants}, the grants a decision with an
 * {@link Allowance} makes, and the grants the loop's approval scan consults, which leave out those whose maker may
 * no longer decide.
 */
public final class DefaultGrants implements Grants {
    private final GrantStore store;
    private final Permissions permissions;
    private final AgentDirectory agents;
    private final Clock clock;
    private final IdGenerator ids;

    public DefaultGrants(GrantStore store, ActorDirectory users, AgentDirectory agents, Clock clock,
                         IdGenerator ids) {
        this.store = Objects.requireNonNull(store, "store");
        this.permissions = new Permissions(Objects.requireNonNull(users, "users"));
        this.agents = Objects.requireNonNull(agents, "agents");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.ids = Objects.requireNonNull(ids, "ids");
    }

    @Override
    public List<Grant> list(Actor actor) {
        permissions.requireNow(actor, Operation.VIEW_GRANTS);
        return store.list(clock.instant());
    }

    @Override
    public Grant revoke(Actor actor, String grantId) {
        Actor now = permissions.requireNow(actor, Operation.REVOKE_GRANT);
        Instant at = clock.instant();
        Grant grant = store.find(grantId).filter(found -> found.liveAt(at))
                .orElseThrow(() -> new IllegalArgumentException("no live grant has the id \"" + grantId + "\""));
        if (!now.roles().contains(Role.ADMIN) && !grant.grantedBy().equals(now.name())) {
            throw new NotPermittedException(Operation.REVOKE_GRANT.name().toLowerCase(Locale.ROOT),
                    now.name() + " may not revoke grant " + grantId + ": it was made by " + grant.grantedBy()
                            + ", and only they or an admin may revoke it");
        }
        GovernanceEvent event = new GovernanceEvent(ids.next(), at, EventType.GRANT_REVOKED, null, grant.tool(),
                null, grant.runId(), grant.agent(), now.name(), null, "grant " + grant.id());
        if (!store.revoke(grantId, now.name(), at, event)) {
            throw new IllegalArgumentException("no live grant has the id \"" + grantId + "\"");
        }
        return grant;
    }

    @Override
    public boolean switchGrants(Actor actor, String agent, boolean on) {
        Actor now = permissions.requireNow(actor, Operation.SWITCH_GRANTS);
        agents.get(agent);
        return store.switchGrants(agent, on, now.name(), clock.instant());
    }

    @Override
    public List<String> switchedOff(Actor actor) {
        permissions.requireNow(actor, Operation.VIEW_GRANTS);
        return store.switchedOffAgents();
    }

    /** The grants the loop consults: only those whose maker may still decide. */
    StandingGrants forLoop() {
        return new StandingGrants() {
            @Override
            public List<Grant> live(String agent, String tool, Instant at) {
                return store.live(agent, tool, at).stream()
                        .filter(grant -> Permissions.allows(permissions.current(Actor.of(grant.grantedBy())),
                                Operation.DECIDE))
                        .toList();
            }

            @Override
            public void used(String grantId, Instant at) {
                store.used(grantId, at);
            }
        };
    }

    /**
     * The grants an approval with an allowance makes, one per approved call as it finally is (its edited arguments,
     * if any), or the refusal the decision gets when the allowance cannot apply; nothing is written.
     */
    Made prepare(StoredRun run, Actor decider, List<Decision.CallVerdict> verdicts,
                 Map<Integer, EditCheck> edits, Allowance allowance) {
        String runId = run.runId();
        if (store.switchedOff(run.agent())) {
            return new Made.Refused(new DecisionResult.NotPermitted(runId, "an admin switched the grants of agent \""
                    + run.agent() + "\" off, so its calls cannot be allowed; approve without allowing"));
        }
        Instant at = clock.instant();
        List<Grant> grants = new ArrayList<>();
        for (Decision.CallVerdict verdict : verdicts) {
            if (!verdict.approved()) {
                continue;
            }
            PendingCall pending = run.pausedState().calls().get(verdict.index());
            ToolCall call = verdict.edited() ? pending.call().withTarget(pending.call().name(), verdict.arguments())
                    : pending.call();
            ToolInvocationTarget target = edits.get(verdict.index()) instanceof EditCheck.Fits fits ? fits.target()
                    : pending.target();
            GrantScope scope;
            if (allowance.folder() == null) {
                scope = GrantScope.SameArguments.of(call.arguments());
            } else {
                try {
                    scope = new GrantScope.Folder(allowance.folder());
                } catch (IllegalArgumentException e) {
                    return new Made.Refused(new DecisionResult.EditRefused(runId, verdict.index(), null,
                            e.getMessage()));
                }
                if (!scope.covers(call, target)) {
                    return new Made.Refused(new DecisionResult.EditRefused(runId, verdict.index(), null,
                            target == null || !GrantScope.Folder.FILE_TARGET.equals(target.kind())
                                    ? "call " + verdict.index() + " (" + call.name() + ") names no file of the"
                                    + " workspace, so it can only be allowed with exactly the same arguments"
                                    : "call " + verdict.index() + " (" + call.name() + ") is not in the folder \""
                                    + scope.value() + "\", so a grant for that folder would not cover it"));
                }
            }
            GrantSpan span = allowance.span();
            grants.add(new Grant(ids.next(), run.agent(), call.name(), scope, span,
                    span == GrantSpan.REST_OF_RUN ? runId : null, decider.name(), at, span.expiry(at), 0, null,
                    null));
        }
        return new Made.Ready(grants);
    }

    /**
     * Stores the grants of a decision claimed on the run, each with its {@code grant_made} event (no argument in
     * it).
     */
    void store(List<Grant> grants, String runId, String model) {
        for (Grant grant : grants) {
            store.create(grant, new GovernanceEvent(ids.next(), grant.grantedAt(), EventType.GRANT_MADE, null,
                    grant.tool(), null, runId, grant.agent(),
                    grant.grantedBy(), model, "grant " + grant.id() + " for " + grant.span().code() + ", scope "
                            + grant.scope().kind()));
        }
    }

    /** The grants a decision will make once claimed, or why it cannot. */
    sealed interface Made {
        record Ready(List<Grant> grants) implements Made {
            public Ready {
                grants = List.copyOf(grants);
            }
        }

        record Refused(DecisionResult result) implements Made {
        }
    }
}
