package io.countersign.service;

import io.countersign.engine.Actor;
import io.countersign.engine.port.ActorDirectory;
import io.countersign.engine.tool.ImportReport;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.store.ServerStore;
import io.countersign.tools.mcp.McpServerException;
import io.countersign.tools.mcp.McpToolSource;
import io.countersign.tools.mcp.SecretResolver;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The server use cases over the store. A process that imports the servers' tools hears of every change through
 * the store's change feed and imports again.
 */
public final class DefaultServerService implements ServerService {
    private final ServerStore servers;
    private final SecretResolver secrets;
    private final Permissions permissions;

    public DefaultServerService(ServerStore servers, SecretResolver secrets, ActorDirectory users) {
        this.servers = Objects.requireNonNull(servers, "servers");
        this.secrets = Objects.requireNonNull(secrets, "secrets");
        this.permissions = new Permissions(users);
    }

    @Override
    public List<McpServerRecord> list(Actor actor) {
        permissions.requireNow(actor, Operation.VIEW_SERVERS);
        return servers.list();
    }

    @Override
    public ServerResult add(Actor actor, String name, ServerForm form) {
        permissions.requireNow(actor, Operation.CHANGE_SERVERS);
        McpServerRecord server = form.toRecord(name);
        return servers.add(server, actor).<ServerResult>map(changes -> new ServerResult.Saved(server, changes))
                .orElseGet(() -> new ServerResult.NameTaken(name));
    }

    @Override
    public ServerResult edit(Actor actor, String name, ServerForm form) {
        permissions.requireNow(actor, Operation.CHANGE_SERVERS);
        Optional<McpServerRecord> current = servers.find(name);
        if (current.isEmpty()) {
            return new ServerResult.NoSuchServer(name);
        }
        McpServerRecord server = form.applyTo(current.get());
        return servers.update(server, actor).<ServerResult>map(changes -> new ServerResult.Saved(server, changes))
                .orElseGet(() -> new ServerResult.NoSuchServer(name));
    }

    @Override
    public ServerResult remove(Actor actor, String name) {
        permissions.requireNow(actor, Operation.CHANGE_SERVERS);
        return servers.remove(name, actor).<ServerResult>map(changes -> new ServerResult.Removed(name, changes))
                .orElseGet(() -> new ServerResult.NoSuchServer(name));
    }

    @Override
    public ServerCheck test(Actor actor, String name) {
        permissions.requireNow(actor, Operation.TEST_SERVERS);
        Optional<McpServerRecord> server = servers.find(name);
        if (server.isEmpty()) {
            return new ServerCheck.NoSuchServer(name);
        }
        // A registry of its own: testing must not offer the tools to anyone.
        try (McpToolSource source = McpToolSource.builder(server.get().withEnabled(true), new ToolRegistry())
                .secrets(secrets).build()) {
            ImportReport report = source.open();
            return new ServerCheck.Reachable(name, report.registered(), report.skipped());
        } catch (McpServerException e) {
            return new ServerCheck.Unreachable(name, e.kind().name().toLowerCase(Locale.ROOT), e.getMessage());
        }
    }
}
