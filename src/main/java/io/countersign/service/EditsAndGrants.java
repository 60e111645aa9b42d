package io.countersign.service;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Actor;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.grant.Grant;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.port.StoredRuns;
import io.countersign.engine.run.EditCheck;
import io.countersign.engine.state.RunStatus;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What an approval adds to its verdicts: the arguments a person edited, checked before anything is decided, and the
 * standing grants an "Approve and allow" makes once the decision is claimed.
 */
final class EditsAndGrants {
    private final CallEdits edits;
    /** {@code null} in a service that keeps no grants: an allowance is then refused. */
    private final DefaultGrants grants;
    private final StoredRuns runs;
    private final AgentDirectory agents;

    EditsAndGrants(CallEdits edits, DefaultGrants grants, StoredRuns runs, AgentDirectory agents) {
        this.edits = edits;
        this.grants = grants;
        this.runs = runs;
        this.agents = agents;
    }

    /** The checks of the edits and the allowance of a decision that passed every other check. */
    sealed interface Checked {
        Checked NOTHING = new Ready(List.of());

        record Ready(List<Grant> grants) implements Checked {
            public Ready {
                grants = List.copyOf(grants);
            }
        }

        record Refused(DecisionResult result) implements Checked {
        }
    }

    /**
     * One edited call checked for the card, before the person approves: nothing is decided or recorded. The
     * caller checked the decider's role.
     */
    EditCheck checkEdit(Actor decider, String runId, int index, ObjectNode arguments) {
        Optional<StoredRun> found = runs.find(runId);
        if (found.isEmpty() || found.get().status() != RunStatus.WAITING_FOR_APPROVAL
                || found.get().pausedState() == null) {
            return new EditCheck.Invalid(index, "run " + runId + " does not wait for approval, so its calls cannot"
                    + " be edited");
        }
        return edits.check(found.get(), agents.get(found.get().agent()), index, arguments);
    }

    /** The JSON Schema of a tool's arguments, for the form that edits them. */
    Optional<ObjectNode> argumentSchema(String tool) {
        return edits.schemaOf(tool);
    }

    Checked check(StoredRun run, AgentConfiguration configuration, Actor decider, Decision decision,
                  Allowance allowance) {
        if (!(decision instanceof Decision.Approval approval)) {
            return Checked.NOTHING;
        }
        Map<Integer, EditCheck> checked = edits.checkAll(run, configuration, approval.verdicts());
        Optional<DecisionResult> refusal = CallEdits.refusal(run.runId(), checked);
        if (refusal.isPresent()) {
            return new Checked.Refused(refusal.get());
        }
        if (allowance == null || approval.approved() == 0) {
            return Checked.NOTHING;
        }
        if (grants == null) {
            return new Checked.Refused(new DecisionResult.NotPermitted(run.runId(),
                    "this process keeps no standing grants, so calls cannot be allowed; approve without allowing"));
        }
        DefaultGrants.Made made = grants.prepare(run, decider, approval.verdicts(), checked, allowance);
        if (made instanceof DefaultGrants.Made.Refused refused) {
            return new Checked.Refused(refused.result());
        }
        return new Checked.Ready(((DefaultGrants.Made.Ready) made).grants());
    }

    /** Stores the grants of a decision just claimed on the run. */
    void claimed(Checked checked, StoredRun run) {
        if (checked instanceof Checked.Ready ready && !ready.grants().isEmpty()) {
            grants.store(ready.grants(), run.runId(), run.pausedState().model().name());
        }
    }

    /** The service's grants, or empty when it keeps none. */
    Optional<DefaultGrants> grants() {
        return Optional.ofNullable(grants);
    }
}
