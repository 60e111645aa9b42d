package io.countersign.tools.mcp;

import io.countersign.engine.tool.McpServerRecord;
import io.countersign.tools.mcp.oauth.OAuthAuthorizer;
import io.countersign.tools.mcp.oauth.OAuthSetup;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpClientTransport;
import java.net.http.HttpRequest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Makes the transport a server record asks for. A Streamable HTTP server whose record sends no
 * {@code Authorization} header of its own is authorized through OAuth when it asks for it (HTTP 401): one
 * {@link OAuthAuthorizer} per connection, kept across reconnects, so a grant is reused.
 */
final class McpTransports {
    private final McpServerRecord server;
    private final SecretResolver secrets;
    private final McpJsonMapper json;
    private final OAuthAuthorizer authorizer;

    /**
     * {@code oauth} may be null for a stdio server; {@code deadlines} are the connection's running deadlines, which
     * stop while a sign-in waits for a person.
     */
    McpTransports(McpServerRecord server, SecretResolver secrets, McpJsonMapper json, OAuthSetup oauth,
                  Supplier<List<CallDeadline>> deadlines) {
        this.server = server;
        this.secrets = secrets;
        this.json = json;
        if (oauth != null && server.transport() instanceof McpServerRecord.StreamableHttp http && http.headers().keySet().stream()
                .noneMatch(header -> header.toLowerCase(Locale.ROOT).equals("authorization"))) {
            authorizer = new OAuthAuthorizer(server.name(), http.url(), oauth.client(), oauth.vault(),
                    oauth.browser(), server.connectTimeout());
            authorizer.listener(new OAuthAuthorizer.SignInListener() {
                private List<CallDeadline> paused = List.of();

                @Override
                public void started() {
                    paused = deadlines.get();
                    paused.forEach(CallDeadline::pause);
                }

                @Override
                public void ended() {
                    paused.forEach(CallDeadline::resume);
                    paused = List.of();
                }
            });
        } else {
            authorizer = null;
        }
    }

    /** Where this server's OAuth grant is kept, or null when the server is not authorized through OAuth. */
    String credentialStore() {
        return authorizer == null ? null : authorizer.vaultDescription();
    }

    /** Whether this connection has signed in (or found a grant) and sends a token. */
    boolean sendsToken() {
        return authorizer != null && authorizer.hasGrant();
    }

    McpClientTransport create() {
        if (server.transport() instanceof McpServerRecord.Stdio stdio) {
            Map<String, String> environment = new LinkedHashMap<>();
            stdio.env().forEach((variable, value) -> environment.put(variable, SecretValue.resolve(value, secrets,
                    "environment variable \"" + variable + "\" of " + name())));
            return new StdioProcessTransport(server.name(), stdio.command(), stdio.args(), environment, json);
        }
        McpServerRecord.StreamableHttp http = (McpServerRecord.StreamableHttp) server.transport();
        HttpRequest.Builder requests = HttpRequest.newBuilder();
        http.headers().forEach((header, value) -> requests.header(header, SecretValue.resolve(value, secrets,
                "header \"" + header + "\" of " + name())));
        return new StreamableHttpTransport(server.name(), http.url(), requests, server.connectTimeout(), json,
                authorizer);
    }

    private String name() {
        return "server \"" + server.name() + "\"";
    }
}
