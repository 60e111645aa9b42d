package io.countersign.service;

import io.countersign.engine.run.DecisionDeadlines;
import java.util.List;

/** An agent configuration as a person picks it from a list, with how long its cards may wait. */
public record AgentSummary(String name, String model, String trustZone, List<String> toolGroups, boolean fourEyes,
                           boolean scripted, DecisionDeadlines deadlines) {
    public AgentSummary {
        toolGroups = List.copyOf(toolGroups);
        deadlines = deadlines == null ? DecisionDeadlines.NONE : deadlines;
    }

    /** An agent whose cards wait without a deadline. */
    public AgentSummary(String name, String model, String trustZone, List<String> toolGroups, boolean fourEyes,
                        boolean scripted) {
        this(name, model, trustZone, toolGroups, fourEyes, scripted, DecisionDeadlines.NONE);
    }
}
