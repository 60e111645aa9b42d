package io.countersign.service;

import java.util.List;

/** The model and agent configurations an import saved or an export wrote, by name, in file order. */
public record AgentImport(List<String> models, List<String> agents) {
    public AgentImport {
        models = List.copyOf(models);
        agents = List.copyOf(agents);
    }
}
