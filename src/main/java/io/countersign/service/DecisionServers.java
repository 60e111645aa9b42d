package io.countersign.service;

import io.countersign.engine.decision.Decision;
import io.countersign.engine.port.ServerRecords;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.PendingCall;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.engine.tool.ToolRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The MCP servers whose tools the calls of a committed decision need: connected before those calls run, so that
 * an approved call never turns into a refusal because its server is not connected in this process. Only the
 * servers the calls need are connected, not every enabled one.
 */
final class DecisionServers {
    private static final System.Logger LOG = System.getLogger(DecisionServers.class.getName());
    /** Beyond a server's own connect timeout, which ends its attempt: the import of its tools list. */
    private static final Duration MARGIN = Duration.ofSeconds(5);

    private final ToolRegistry registry;
    private final ServerRecords records;
    private final ServerConnections connections;

    DecisionServers(ToolRegistry registry, ServerRecords records, ServerConnections connections) {
        this.registry = registry;
        this.records = records;
        this.connections = connections;
    }

    /** What a card says about a call's tool, from the server records as they stand now. */
    ToolFacts facts() {
        return ToolFacts.now(registry, records);
    }

    /**
     * The enabled servers of the calls that dispatch when the decision resumes its pause: the approved calls or
     * the call given its input, and the calls that need nobody. A call of a disabled or removed server is refused
     * as it runs, as an administrator meant it.
     */
    Set<McpServerRecord> needed(PausedState state, Decision decision) {
        Set<Integer> approved = decision.approvedCalls();
        ToolFacts facts = facts();
        return state.calls().stream()
                .filter(call -> switch (call.disposition()) {
                    case AWAITS_APPROVAL -> approved.contains(call.index());
                    case AWAITS_INPUT -> decision instanceof Decision.Input;
                    case RUNS_ON_RESUME, APPROVED_BY_GRANT -> true;
                    case REFUSED -> false;
                })
                .map(PendingCall::call)
                .flatMap(call -> facts.server(call.name()).stream())
                .filter(McpServerRecord::enabled)
                .collect(Collectors.toSet());
    }

    /** The names of the servers the decision's calls need, in name order, as a card names them. */
    List<String> neededNames(PausedState state, Decision decision) {
        return List.copyOf(new TreeSet<>(names(needed(state, decision))));
    }

    /** Starts connecting the servers, in the background. */
    void request(Set<McpServerRecord> servers) {
        if (!servers.isEmpty()) {
            connections.request(names(servers));
        }
    }

    /**
     * Connects the servers and waits for them, at most the longest of their connect timeouts (and a margin for
     * the import), saying so in one log line when it waits at all.
     *
     * @return the names of those whose tools are still not offered here, in name order
     */
    List<String> missing(String runId, Set<McpServerRecord> servers) {
        if (servers.isEmpty()) {
            return List.of();
        }
        Set<String> names = names(servers);
        connections.request(names);
        Set<String> missing = connections.await(names, Duration.ZERO);
        if (missing.isEmpty()) {
            return List.of();
        }
        Duration bound = servers.stream().map(McpServerRecord::connectTimeout).max(Duration::compareTo)
                .orElseThrow().plus(MARGIN);
        LOG.log(System.Logger.Level.INFO, "run {0}: waiting up to {1} s for MCP server {2} to connect before the"
                + " decided calls run", runId, bound.toSeconds(), String.join(", ", new TreeSet<>(missing)));
        return List.copyOf(new TreeSet<>(connections.await(missing, bound)));
    }

    private static Set<String> names(Set<McpServerRecord> servers) {
        return servers.stream().map(McpServerRecord::name).collect(Collectors.toSet());
    }
}
