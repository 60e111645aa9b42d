package io.countersign.service;

import io.countersign.engine.Actor;
import io.countersign.engine.tool.RemoteDeclaration;
import io.countersign.engine.port.ActorDirectory;
import io.countersign.engine.tool.ImportReport;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.store.ServerStore;
import io.countersign.tools.mcp.McpServerException;
import io.countersign.tools.mcp.McpToolSource;
import io.countersign.tools.mcp.SecretResolver;
import io.countersign.tools.mcp.oauth.OAuthGrants;
import io.countersign.tools.mcp.oauth.OAuthSetup;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
    private final OAuthSetup oauthGiven;
    private OAuthSetup oauthChosen;

    public DefaultServerService(ServerStore servers, SecretResolver secrets, ActorDirectory users) {
        this(servers, secrets, users, null);
    }

    /** {@code oauth} null: the user's credential store and browser ({@link OAuthSetup#forThisUser()}), when needed. */
    public DefaultServerService(ServerStore servers, SecretResolver secrets, ActorDirectory users, OAuthSetup oauth) {
        this.oauthGiven = oauth;
        this.servers = Objects.requireNonNull(servers, "servers");
        this.secrets = Objects.requireNonNull(secrets, "secrets");
        this.permissions = new Permissions(users);
    }

    private synchronized OAuthSetup oauth() {
        if (oauthChosen == null) {
            oauthChosen = oauthGiven != null ? oauthGiven : OAuthSetup.forThisUser();
        }
        return oauthChosen;
    }

    @Override
    public List<McpServerRecord> list(Actor actor) {
        permissions.requireNow(actor, Operation.VIEW_SERVERS);
        return servers.list();
    }

    @Override
    public Map<String, RemoteDeclaration> toolDeclarations(Actor actor, String server) {
        permissions.requireNow(actor, Operation.VIEW_SERVERS);
        return servers.toolDeclarations(server);
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
        return connect(server.get());
    }

    @Override
    public ServerCheck signIn(Actor actor, String name, Optional<String> clientId) {
        permissions.requireNow(actor, Operation.TEST_SERVERS);
        Optional<McpServerRecord> server = servers.find(name);
        if (server.isEmpty()) {
            return new ServerCheck.NoSuchServer(name);
        }
        if (!(server.get().transport() instanceof McpServerRecord.StreamableHttp http)) {
            return new ServerCheck.Unreachable(name, "configuration", "server \"" + name + "\" is started as a"
                    + " program (stdio); only a Streamable HTTP server (--url) signs in through OAuth");
        }
        if (http.headers().keySet().stream().anyMatch(header -> header.equalsIgnoreCase("Authorization"))) {
            return new ServerCheck.Unreachable(name, "configuration", "server \"" + name + "\" sends an"
                    + " Authorization header of its own; remove it (servers edit " + name + " --header ...) to sign"
                    + " in through OAuth instead");
        }
        clientId.ifPresent(id -> OAuthGrants.preRegister(oauth().vault(), name, http.url(), id));
        return connect(server.get());
    }

    private ServerCheck connect(McpServerRecord record) {
        String name = record.name();
        // A registry of its own: testing must not offer the tools to anyone.
        try (McpToolSource source = McpToolSource.builder(record.withEnabled(true), new ToolRegistry())
                .secrets(secrets).oauth(oauth()).build()) {
            ImportReport report = source.open();
            return new ServerCheck.Reachable(name, report.registered(), report.skipped(), source.credentialStore());
        } catch (McpServerException e) {
            return new ServerCheck.Unreachable(name, e.kind().name().toLowerCase(Locale.ROOT), e.getMessage());
        }
    }
}
