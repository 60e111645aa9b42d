package io.countersign.tools.mcp;

import io.countersign.engine.Json;
import io.countersign.engine.Names;
import io.countersign.engine.tool.ImportReport;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.engine.tool.ServerHints;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.tools.mcp.oauth.OAuthSetup;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Imports one MCP server's tools into a {@link ToolRegistry} as remote tools and keeps them current: it re-reads
 * the tool list when the server announces a change ({@code notifications/tools/list_changed}) and after a
 * reconnect, unregistering tools that vanished and registering new ones.
 *
 * <p>A tool is named {@code <server>.<tool>}, lower-cased, with every character outside {@code [a-z0-9_.-]}
 * replaced by {@code _} and cut to 64 characters. A tool is skipped, and the skip reported in the
 * {@link ImportReport}, when it has no name, when its name collides after this sanitising, when its input schema
 * is not an object schema, or when the registry refuses it; the registry never holds half a tool.
 *
 * <p>Every imported tool takes its group and data class from the server record and needs an approval exactly when
 * the record declares the server approval-bound; the server's own hints ({@code readOnlyHint},
 * {@code destructiveHint}, ...) are ignored.
 */
public final class McpToolSource implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(McpToolSource.class.getName());

    private final McpServerRecord server;
    private final ToolRegistry registry;
    private final Consumer<ImportReport> reports;
    private final McpConnection connection;
    /** Re-reads the tool list off the transport's threads, one listing at a time. */
    private final ExecutorService background;
    /** Listings are numbered when they are asked for; an answer older than the one applied is dropped. */
    private final AtomicLong listings = new AtomicLong();
    private long appliedListing;
    private Map<String, McpRemoteTool> imported = new LinkedHashMap<>();
    private volatile ImportReport lastImport;

    private McpToolSource(Builder builder) {
        this.server = builder.server;
        this.registry = builder.registry;
        this.reports = builder.reports;
        this.background = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "mcp-" + server.name() + "-tools");
            thread.setDaemon(true);
            return thread;
        });
        this.connection = new McpConnection(server, builder.secrets, new McpConnection.Listener() {
            @Override
            public void toolsChanged() {
                refreshLater(ImportReport.Trigger.LIST_CHANGED);
            }

            @Override
            public void reconnected() {
                refreshLater(ImportReport.Trigger.RECONNECT);
            }
        }, builder.clock, builder.oauth != null || !(server.transport() instanceof McpServerRecord.StreamableHttp)
                ? builder.oauth : OAuthSetup.forThisUser());
    }

    public static Builder builder(McpServerRecord server, ToolRegistry registry) {
        return new Builder(server, registry);
    }

    /**
     * Connects to the server, completes the handshake and imports its tools.
     *
     * @throws McpServerException     when the server cannot be started or reached, does not answer in time, or
     *                                answers with something that is not MCP; nothing is registered then
     * @throws IllegalStateException  when the server record is disabled
     */
    public ImportReport open() {
        if (!server.enabled()) {
            throw new IllegalStateException("server \"" + server.name() + "\" is disabled; enable it before"
                    + " connecting");
        }
        return refresh(ImportReport.Trigger.CONNECT);
    }

    /** Reads the server's tool list again now and brings the registry in line with it. */
    public ImportReport refresh() {
        return refresh(ImportReport.Trigger.REFRESH);
    }

    public McpServerRecord server() {
        return server;
    }

    /**
     * Where the OAuth grant this connection signs in with is kept (such as "the Secret Service (D-Bus)"), when the
     * server is authorized through OAuth.
     */
    public Optional<String> credentialStore() {
        return Optional.ofNullable(connection.credentialStore());
    }

    /** What the server offers beside its tools, through this source's connection. */
    ServerFeatures features() {
        return connection;
    }

    /** The last import applied, or {@code null} before the first. */
    public ImportReport lastImport() {
        return lastImport;
    }

    /** Disconnects and unregisters every tool this source registered. */
    @Override
    public void close() {
        background.shutdownNow();
        connection.close();
        synchronized (this) {
            imported.keySet().forEach(registry::unregister);
            imported = new LinkedHashMap<>();
        }
    }

    /** The registry name of a server's tool: {@code <server>.<tool>} made to fit {@code [a-z][a-z0-9_.-]*}. */
    static String registryName(String server, String remoteName) {
        StringBuilder name = new StringBuilder();
        (server + "." + remoteName).toLowerCase(Locale.ROOT).codePoints().forEach(c -> name.appendCodePoint(
                c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-' ? c : '_'));
        return name.length() > Names.MAX_CODE_LENGTH ? name.substring(0, Names.MAX_CODE_LENGTH) : name.toString();
    }

    private ImportReport refresh(ImportReport.Trigger trigger) {
        long listing = listings.incrementAndGet();
        return apply(listing, connection.listTools(), trigger);
    }

    private void refreshLater(ImportReport.Trigger trigger) {
        try {
            background.execute(() -> {
                try {
                    refresh(trigger);
                } catch (McpServerException e) {
                    if (!background.isShutdown()) {
                        LOG.log(Level.WARNING, "{0}; its tools stay as they were", e.getMessage());
                    }
                }
            });
        } catch (RejectedExecutionException e) {
            // closed meanwhile: nothing to keep current
        }
    }

    /** Imports a tool list as if the server had just listed it. */
    ImportReport importTools(List<McpSchema.Tool> tools, ImportReport.Trigger trigger) {
        return apply(listings.incrementAndGet(), tools, trigger);
    }

    private synchronized ImportReport apply(long listing, List<McpSchema.Tool> tools, ImportReport.Trigger trigger) {
        if (listing < appliedListing || background.isShutdown()) {
            return lastImport;
        }
        appliedListing = listing;
        List<ImportReport.SkippedTool> skipped = new ArrayList<>();
        Map<String, McpRemoteTool> listed = toRemoteTools(tools, skipped);
        List<String> removed = new ArrayList<>();
        imported.forEach((name, old) -> {
            McpRemoteTool current = listed.get(name);
            if (current == null || !current.sameAs(old)) {
                registry.unregister(name);
                if (current == null) {
                    removed.add(name);
                }
            }
        });
        Map<String, McpRemoteTool> next = new LinkedHashMap<>();
        listed.forEach((name, tool) -> {
            McpRemoteTool old = imported.get(name);
            if (old != null && old.sameAs(tool)) {
                next.put(name, old);
                return;
            }
            try {
                registry.register(tool);
                next.put(name, tool);
            } catch (IllegalArgumentException e) {
                skipped.add(new ImportReport.SkippedTool(tool.remoteName(), e.getMessage()));
            }
        });
        imported = next;
        ImportReport report = new ImportReport(server.name(), trigger, List.copyOf(next.keySet()), removed, skipped);
        skipped.forEach(skip -> LOG.log(Level.WARNING, "server {0}: tool \"{1}\" was not imported: {2}",
                new Object[] {server.name(), skip.remoteName(), skip.reason()}));
        lastImport = report;
        reports.accept(report);
        return report;
    }

    private Map<String, McpRemoteTool> toRemoteTools(List<McpSchema.Tool> tools,
                                                     List<ImportReport.SkippedTool> skipped) {
        Map<String, McpRemoteTool> listed = new LinkedHashMap<>();
        Map<String, String> claimedBy = new HashMap<>();
        for (McpSchema.Tool tool : tools) {
            if (tool == null || tool.name() == null || tool.name().isBlank()) {
                skipped.add(new ImportReport.SkippedTool(tool == null ? null : tool.name(), "the tool has no name"));
                continue;
            }
            String name = registryName(server.name(), tool.name());
            String earlier = claimedBy.putIfAbsent(name, tool.name());
            if (earlier != null) {
                skipped.add(new ImportReport.SkippedTool(tool.name(), "its name becomes \"" + name
                        + "\", which tool \"" + earlier + "\" of the same server already has"));
                continue;
            }
            Optional<String> problem = schemaProblem(tool.inputSchema());
            if (problem.isPresent()) {
                skipped.add(new ImportReport.SkippedTool(tool.name(), problem.get()));
                continue;
            }
            listed.put(name, new McpRemoteTool(name, tool.name(), description(tool),
                    Json.mapper().valueToTree(tool.inputSchema()), hints(tool), server, connection::call));
        }
        return listed;
    }

    private static ServerHints hints(McpSchema.Tool tool) {
        McpSchema.ToolAnnotations annotations = tool.annotations();
        return annotations == null ? ServerHints.NONE
                : new ServerHints(annotations.readOnlyHint(), annotations.destructiveHint());
    }

    private static Optional<String> schemaProblem(Map<String, Object> schema) {
        Object type = schema.get("type");
        if (type == null) {
            return Optional.of("its input schema is not an object schema (it has no \"type\")");
        }
        if (!"object".equals(type)) {
            return Optional.of("its input schema is not an object schema (\"type\": "
                    + (type instanceof String ? "\"" + type + "\"" : String.valueOf(type)) + ")");
        }
        Object properties = schema.get("properties");
        if (properties != null && !(properties instanceof Map)) {
            return Optional.of("its input schema's \"properties\" is not an object");
        }
        Object required = schema.get("required");
        if (required != null && !(required instanceof List)) {
            return Optional.of("its input schema's \"required\" is not an array");
        }
        return Optional.empty();
    }

    private String description(McpSchema.Tool tool) {
        if (tool.description() != null && !tool.description().isBlank()) {
            return tool.description();
        }
        if (tool.title() != null && !tool.title().isBlank()) {
            return tool.title();
        }
        return "Tool \"" + tool.name() + "\" of MCP server \"" + server.name() + "\"";
    }

    /** How to build a source; only the server record and the registry are required. */
    public static final class Builder {
        private final McpServerRecord server;
        private final ToolRegistry registry;
        private SecretResolver secrets = SecretResolver.environment();
        private Consumer<ImportReport> reports = report -> {
        };
        private Clock clock = Clock.systemUTC();
        private OAuthSetup oauth;

        private Builder(McpServerRecord server, ToolRegistry registry) {
            this.server = Objects.requireNonNull(server, "server");
            this.registry = Objects.requireNonNull(registry, "registry");
        }

        /** Where {@code env:NAME} references of the record are resolved; the process environment by default. */
        public Builder secrets(SecretResolver value) {
            this.secrets = Objects.requireNonNull(value, "secrets");
            return this;
        }

        /** Hears every import, also those that follow a change announced by the server or a reconnect. */
        public Builder onImport(Consumer<ImportReport> value) {
            this.reports = Objects.requireNonNull(value, "onImport");
            return this;
        }

        /**
         * How to sign in to a Streamable HTTP server that wants OAuth; by default {@link OAuthSetup#forThisUser()}.
         */
        public Builder oauth(OAuthSetup value) {
            this.oauth = Objects.requireNonNull(value, "oauth");
            return this;
        }

        /** The clock that times reconnect backoff. */
        public Builder clock(Clock value) {
            this.clock = Objects.requireNonNull(value, "clock");
            return this;
        }

        /** A source that is not connected yet; {@link McpToolSource#open()} connects it. */
        public McpToolSource build() {
            return new McpToolSource(this);
        }
    }
}
