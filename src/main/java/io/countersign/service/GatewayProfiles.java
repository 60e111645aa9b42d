package io.countersign.service;

import io.countersign.engine.Actor;
import io.countersign.engine.chat.TrustZone;
import io.countersign.engine.port.ServerRecords;
import io.countersign.engine.agent.DeadlineRule;
import io.countersign.engine.agent.DecisionDeadlines;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.store.ConfigurationStore;
import io.countersign.store.StoredAgentConfiguration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Gateway profiles: agent configurations without a model, whose "model" is the MCP host connected to the gateway
 * ({@link ModelConfiguration#GATEWAY_PROVIDER}, one stand-in per trust zone, named {@code gateway-<zone>}). A
 * profile fronts the tools of the server records it names (by their groups) and of its allow-list, with the trust
 * zone, four-eyes rule and decision deadline of any agent; the agents file may declare them too.
 */
public final class GatewayProfiles {
    /** A host connection is one run, and each of its calls a round: the cap is far beyond any session. */
    public static final int MAX_ROUNDS = 1_000_000;

    private final ConfigurationStore configurations;
    private final ServerRecords servers;
    private final Permissions permissions;

    public GatewayProfiles(ConfigurationStore configurations, ServerRecords servers,
                           io.countersign.engine.port.ActorDirectory users) {
        this.configurations = configurations;
        this.servers = servers;
        this.permissions = new Permissions(users);
    }

    /** A profile as the command line and the console show it. */
    public record Profile(String name, List<String> toolGroups, List<String> allowedTools, String trustZone,
                          boolean fourEyes, DecisionDeadlines deadlines) {
    }

    /**
     * Saves a profile, replacing one of the same name.
     *
     * @param servers  the server records it fronts; each must exist
     * @param deadline a span such as {@code 30m}, or null for none; {@code fallback} is then required
     * @throws IllegalArgumentException naming what is wrong; nothing was saved
     */
    public Profile add(Actor actor, String name, List<String> servers, List<String> allowedTools, String zone,
                       boolean fourEyes, String deadline, String fallback) {
        permissions.requireNow(actor, Operation.IMPORT_AGENTS);
        Optional<StoredAgentConfiguration> existing = configurations.findAgent(name);
        if (existing.isPresent() && !isProfile(existing.get())) {
            throw new IllegalArgumentException("\"" + name + "\" is an agent with the model \""
                    + existing.get().modelName() + "\"; a gateway profile needs a name of its own");
        }
        if (servers.isEmpty() && allowedTools.isEmpty()) {
            throw new IllegalArgumentException("gateway profile \"" + name + "\" fronts nothing: name at least one"
                    + " --server or --tool");
        }
        Set<String> groups = new LinkedHashSet<>();
        for (String server : servers) {
            McpServerRecord record = this.servers.list().stream().filter(r -> r.name().equals(server)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException(
                    "no MCP server record is named \"" + server + "\"; add it first with `countersign servers add`"));
            groups.add(record.group());
        }
        TrustZone trustZone = TrustZone.fromCode(zone);
        DecisionDeadlines deadlines = DecisionDeadlines.NONE;
        if (deadline != null) {
            if (fallback == null) {
                throw new IllegalArgumentException("a deadline needs --fallback deny, cancel or escalate");
            }
            deadlines = new DecisionDeadlines(new DeadlineRule(DeadlineRule.parseSpan("--deadline", deadline),
                    io.countersign.engine.agent.DeadlineAction.fromCode("--fallback", fallback)), Map.of(),
                    DecisionDeadlines.NONE.escalationRole());
        } else if (fallback != null) {
            throw new IllegalArgumentException("--fallback " + fallback + " needs a --deadline");
        }
        ModelConfiguration host = ModelConfiguration.gateway("gateway-" + trustZone.code().toLowerCase(
                java.util.Locale.ROOT), trustZone);
        if (configurations.findModel(host.name()).isEmpty()) {
            configurations.saveModel(host);
        }
        StoredAgentConfiguration stored = new StoredAgentConfiguration(name, "", host.name(), List.copyOf(groups),
                allowedTools, null, "[]", MAX_ROUNDS, fourEyes, deadlines);
        configurations.saveAgent(stored);
        return view(stored, trustZone);
    }

    /** Every gateway profile, by name. */
    public List<Profile> list(Actor actor) {
        permissions.requireNow(actor, Operation.LIST_AGENTS);
        List<Profile> profiles = new ArrayList<>();
        for (StoredAgentConfiguration agent : configurations.listAgents()) {
            configurations.findModel(agent.modelName()).filter(ModelConfiguration::hostDriven)
                    .ifPresent(model -> profiles.add(view(agent, model.trustZone())));
        }
        return profiles;
    }

    /**
     * Removes a profile; the runs it served stay in the history.
     *
     * @throws IllegalArgumentException when no gateway profile has the name
     */
    public void remove(Actor actor, String name) {
        permissions.requireNow(actor, Operation.IMPORT_AGENTS);
        StoredAgentConfiguration found = configurations.findAgent(name).filter(this::isProfile).orElseThrow(() ->
                new IllegalArgumentException("no gateway profile is named \"" + name + "\"; known profiles: "
                        + String.join(", ", list(actor).stream().map(Profile::name).toList())));
        configurations.removeAgent(found.name());
    }

    private boolean isProfile(StoredAgentConfiguration agent) {
        return configurations.findModel(agent.modelName()).map(ModelConfiguration::hostDriven).orElse(false);
    }

    private static Profile view(StoredAgentConfiguration agent, TrustZone zone) {
        return new Profile(agent.name(), agent.toolGroups(), agent.allowedTools(), zone.code(), agent.fourEyes(),
                agent.deadlines());
    }
}
