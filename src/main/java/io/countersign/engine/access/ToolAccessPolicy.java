package io.countersign.engine.access;

import io.countersign.engine.Actor;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.port.EventSink;
import io.countersign.engine.port.IdGenerator;
import io.countersign.engine.port.ToolSettingsSource;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.engine.tool.ToolSettings;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which tools may be offered to a model: five gates that must all pass. The order only decides which reason is
 * reported: registered, enabled (tool and group), admin-only, inside the configuration's groups or allow-list,
 * and within the ceiling of the model's trust zone. The loop asks again for every call just before it executes.
 */
public final class ToolAccessPolicy {
    private final ToolRegistry registry;
    private final ToolSettingsSource settings;
    private final EventSink events;
    private final Clock clock;
    private final IdGenerator ids;

    public ToolAccessPolicy(ToolRegistry registry, ToolSettingsSource settings, EventSink events, Clock clock,
                            IdGenerator ids) {
        this.registry = registry;
        this.settings = settings;
        this.events = events;
        this.clock = clock;
        this.ids = ids;
    }

    /** The permitted names, in the given order; records one {@code tool_denied} event per refused name. */
    public List<String> filterOfferable(List<String> candidates, AgentConfiguration configuration, Actor actor) {
        return filterOfferable(candidates, configuration, actor, null);
    }

    /** As {@link #filterOfferable(List, AgentConfiguration, Actor)}, naming the run in the events. */
    public List<String> filterOfferable(List<String> candidates, AgentConfiguration configuration, Actor actor,
                                        String runId) {
        List<String> permitted = new ArrayList<>(candidates.size());
        ToolSettings current = settings.current();
        for (String candidate : candidates) {
            ToolAccessDecision decision = decide(candidate, configuration, actor, current);
            if (decision.permitted()) {
                permitted.add(candidate);
            } else {
                recordDenial(decision, configuration, actor, runId);
            }
        }
        return permitted;
    }

    /** A decision per candidate, in order, recording nothing. */
    public List<ToolAccessDecision> explain(List<String> candidates, AgentConfiguration configuration, Actor actor) {
        ToolSettings current = settings.current();
        return candidates.stream().map(name -> decide(name, configuration, actor, current)).toList();
    }

    /** The gates for one call about to execute. */
    public ToolAccessDecision check(String toolName, AgentConfiguration configuration, Actor actor) {
        return decide(toolName, configuration, actor, settings.current());
    }

    /** Records a {@code tool_denied} event for a refusal found outside {@link #filterOfferable}. */
    public void recordDenial(ToolAccessDecision decision, AgentConfiguration configuration, Actor actor,
                             String runId) {
        events.record(new GovernanceEvent(ids.next(), clock.instant(), EventType.TOOL_DENIED,
                decision.denialReason().code(), decision.toolName(), null, runId, configuration.name(),
                actor.name(), configuration.model().name(), null));
    }

    private ToolAccessDecision decide(String name, AgentConfiguration configuration, Actor actor,
                                      ToolSettings current) {
        Optional<Tool> found = registry.find(name);
        if (found.isEmpty()) {
            return new ToolAccessDecision(name, ToolDenialReason.NOT_REGISTERED);
        }
        Tool tool = found.get();
        if (!current.enabled(tool)) {
            return new ToolAccessDecision(name, ToolDenialReason.TOOL_DISABLED);
        }
        if (tool.adminOnly() && !actor.isAdmin()) {
            return new ToolAccessDecision(name, ToolDenialReason.REQUIRES_ADMIN);
        }
        if (!configuration.includes(name, tool.group())) {
            return new ToolAccessDecision(name, ToolDenialReason.CONFIGURATION_GROUP);
        }
        if (!configuration.model().trustZone().permits(tool.dataClass())) {
            return new ToolAccessDecision(name, ToolDenialReason.TRUST_ZONE);
        }
        return new ToolAccessDecision(name, null);
    }
}
