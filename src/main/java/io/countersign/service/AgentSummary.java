package io.countersign.service;

import io.countersign.engine.agent.ApprovalQuorum;
import io.countersign.engine.agent.DecisionDeadlines;
import java.util.List;

/**
 * An agent configuration as a person picks it from a list, with how long its cards may wait and how many people
 * approve them.
 */
public record AgentSummary(String name, String model, String trustZone, List<String> toolGroups, boolean fourEyes,
                           boolean scripted, DecisionDeadlines deadlines, ApprovalQuorum approvals) {
    public AgentSummary {
        toolGroups = List.copyOf(toolGroups);
        deadlines = deadlines == null ? DecisionDeadlines.NONE : deadlines;
        approvals = approvals == null ? ApprovalQuorum.ONE : approvals;
    }

    /** An agent whose cards one person decides. */
    public AgentSummary(String name, String model, String trustZone, List<String> toolGroups, boolean fourEyes,
                        boolean scripted, DecisionDeadlines deadlines) {
        this(name, model, trustZone, toolGroups, fourEyes, scripted, deadlines, ApprovalQuorum.ONE);
    }

    /** An agent whose cards wait without a deadline. */
    public AgentSummary(String name, String model, String trustZone, List<String> toolGroups, boolean fourEyes,
                        boolean scripted) {
        this(name, model, trustZone, toolGroups, fourEyes, scripted, DecisionDeadlines.NONE);
    }
}
