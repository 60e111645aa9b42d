package io.countersign.service;

import java.util.List;

/** An agent configuration as a person picks it from a list. */
public record AgentSummary(String name, String model, String trustZone, List<String> toolGroups, boolean fourEyes,
                           boolean scripted) {
    public AgentSummary {
        toolGroups = List.copyOf(toolGroups);
    }
}
