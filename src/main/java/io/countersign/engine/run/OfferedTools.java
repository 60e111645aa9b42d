package io.countersign.engine.run;

import io.countersign.engine.Actor;
import io.countersign.engine.access.ToolAccessDecision;
import io.countersign.engine.access.ToolAccessPolicy;
import io.countersign.engine.access.UnattendedToolFilter;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.state.RunOptions;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.ToolRegistry;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The tools a round may offer: the agent's candidates (its groups' tools and its allowed names) through the
 * five access gates, narrowed to the unattended set when the run has no approval step.
 */
record OfferedTools(ToolRegistry registry, ToolAccessPolicy accessPolicy, UnattendedToolFilter unattendedFilter) {
    /** The offered names for a round that runs on this configuration; each gate's denial is recorded. */
    List<String> offered(AgentConfiguration configuration, RunOptions options, Actor actingUser, String runId) {
        List<String> permitted = accessPolicy.filterOfferable(candidates(configuration), configuration, actingUser,
                runId);
        return options.unattended() ? unattendedFilter.unattended(permitted) : permitted;
    }

    /** The same names without recording anything, for a configuration no round may run on. */
    List<String> offerable(AgentConfiguration configuration, RunOptions options, Actor actingUser) {
        List<String> permitted = accessPolicy.explain(candidates(configuration), configuration, actingUser).stream()
                .filter(ToolAccessDecision::permitted).map(ToolAccessDecision::toolName).toList();
        return options.unattended() ? unattendedFilter.unattended(permitted) : permitted;
    }

    private List<String> candidates(AgentConfiguration configuration) {
        Set<String> names = new LinkedHashSet<>();
        for (Tool tool : registry.tools()) {
            if (configuration.toolGroups().contains(tool.group())) {
                names.add(tool.name());
            }
        }
        names.addAll(configuration.allowedTools());
        return new ArrayList<>(names);
    }
}
