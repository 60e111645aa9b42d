package io.countersign.service;

import io.countersign.engine.tool.RemoteDeclaration;
import io.countersign.engine.port.ServerRecords;
import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.engine.tool.RemoteTool;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.ToolEffect;
import io.countersign.engine.tool.ToolRegistry;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What a card says about a call's tool, the same in every process: a remote tool is known by the server record
 * its name starts with ({@code <server>.<tool>}), whether or not that server is connected here; a local tool by
 * the registry, which holds the same local tools in every process.
 */
final class ToolFacts {
    private final ToolRegistry registry;
    private final ServerRecords records;
    private final Map<String, McpServerRecord> servers;

    private ToolFacts(ToolRegistry registry, ServerRecords records, Map<String, McpServerRecord> servers) {
        this.registry = registry;
        this.records = records;
        this.servers = servers;
    }

    /** The facts as the server records stand now (one read of them). */
    static ToolFacts now(ToolRegistry registry, ServerRecords records) {
        return new ToolFacts(registry, records, records.list().stream()
                .collect(Collectors.toMap(McpServerRecord::name, Function.identity())));
    }

    /** The server record whose tool this is, enabled or not; empty for a local tool. */
    Optional<McpServerRecord> server(String tool) {
        return tool.indexOf('.') < 0 ? Optional.empty()
                : Optional.ofNullable(servers.get(McpServerRecord.serverOf(tool)));
    }

    boolean remote(String tool) {
        return server(tool).isPresent() || local(tool).map(RemoteTool.class::isInstance).orElse(false);
    }

    /**
     * A local tool's effect; {@code null} for a remote tool, whose effect Countersign does not know (its
     * declaration says whether it waits, {@link #declaration}); a tool that vanished since the pause as the most
     * cautious kind.
     */
    ToolEffect effect(String tool) {
        return remote(tool) ? null : local(tool).map(Tool::effect).orElse(ToolEffect.WRITE);
    }

    /** The declaration a remote tool is judged on, with who made it; {@code null} for a local tool. */
    RemoteDeclaration declaration(String tool) {
        return remote(tool) ? records.declarationOf(tool) : null;
    }

    /** What a remote tool's server says of it, where the tool is imported here; empty when it says nothing. */
    String serverClaims(String tool) {
        return local(tool).filter(RemoteTool.class::isInstance).map(found -> ((RemoteTool) found).hints().claims())
                .orElse("");
    }

    DataClass dataClass(String tool) {
        return server(tool).map(McpServerRecord::dataClass)
                .orElseGet(() -> local(tool).map(Tool::dataClass).orElse(DataClass.SECRET_ADJACENT));
    }

    private Optional<Tool> local(String tool) {
        return registry.find(tool);
    }
}
