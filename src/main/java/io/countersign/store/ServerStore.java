package io.countersign.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Actor;
import io.countersign.engine.Json;
import io.countersign.engine.tool.ApprovalDeclaration;
import io.countersign.engine.tool.RemoteDeclaration;
import io.countersign.engine.access.SettingChange;
import io.countersign.engine.port.ServerRecords;
import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.McpServerRecord;
import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The operator's MCP server records. A record's declaration is the setting {@code server_approval_bound:NAME}
 * that {@link SettingsStore} holds and the approval rule reads ("true", "false", or no row: not declared): this
 * store reads it into every record it returns and changes it, through the same setting, when a record is saved. Every change
 * is recorded with who, when, the old and the new value ({@code server:NAME} for the record, the setting for the
 * declaration), in the change's own transaction. Role checks belong to the caller.
 */
public final class ServerStore implements ServerRecords {
    private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {
    };
    private static final TypeReference<Map<String, String>> PAIRS = new TypeReference<>() {
    };
    private static final String STDIO = "stdio";
    private static final String STREAMABLE_HTTP = "streamable_http";
    private static final String COLUMNS = "name, transport, command, arguments, environment, url, headers, enabled,"
            + " tool_group, data_class, call_timeout_nanos, connect_timeout_nanos";

    private final Database database;
    private final SettingsStore settings;
    /**
     * The records as read at one generation of the settings' cache: every inbox read and every decision asks for
     * them, and they change only with the settings (each save here drops that cache, another process's is announced).
     */
    private volatile Listed listed;

    private record Listed(long generation, List<McpServerRecord> servers) {
    }

    ServerStore(Database database, SettingsStore settings) {
        this.database = database;
        this.settings = settings;
    }

    /** Every server record, by name. */
    @Override
    public List<McpServerRecord> list() {
        // the generation is taken before the read, so that a change committed meanwhile makes the next call read again
        long now = settings.generation();
        Listed cached = listed;
        if (cached != null && cached.generation() == now) {
            return cached.servers();
        }
        List<McpServerRecord> servers = List.copyOf(
                database.read("read the MCP server records", connection -> select(connection, null)));
        listed = new Listed(now, servers);
        return servers;
    }

    /** The record of this name, if the store has one. */
    public Optional<McpServerRecord> find(String name) {
        return database.read("read the MCP server record " + name,
                connection -> select(connection, name).stream().findFirst());
    }

    /**
     * Adds a record and sets its server's declaration as the record says.
     *
     * @return the recorded changes, or empty when a server of this name exists already (nothing was changed)
     */
    public Optional<List<SettingChange>> add(McpServerRecord server, Actor who) {
        return save("add the MCP server record " + server.name(), server, who, false);
    }

    /**
     * Replaces the record of the same name and sets its server's declaration as the record says.
     *
     * @return the recorded changes (none when the record was already so), or empty when the store has no server
     *         of this name (nothing was changed)
     */
    public Optional<List<SettingChange>> update(McpServerRecord server, Actor who) {
        return save("change the MCP server record " + server.name(), server, who, true);
    }

    /**
     * The declaration a remote tool is judged on: its own, else its server record's, naming who made it where the
     * recorded changes say.
     */
    @Override
    public RemoteDeclaration declarationOf(String toolName) {
        return settings.declarationOf(toolName, McpServerRecord.serverOf(toolName));
    }

    /** The tools of a server declared by themselves, by name in name order, each naming who declared it. */
    public Map<String, RemoteDeclaration> toolDeclarations(String serverName) {
        return settings.toolDeclarations(serverName);
    }

    /**
     * Removes a record, its declaration and the own declarations of its tools, so that a server added later under
     * the same name starts from the declarations it is given, not from this one's.
     *
     * @return the recorded changes, or empty when the store has no server of this name
     */
    public Optional<List<SettingChange>> remove(String name, Actor who) {
        Objects.requireNonNull(who, "who");
        Optional<List<SettingChange>> changes = database.write("remove the MCP server record " + name,
                ChangeKind.SETTINGS, connection -> {
                    Optional<McpServerRecord> old = select(connection, name).stream().findFirst();
                    if (old.isEmpty()) {
                        return Optional.empty();
                    }
                    try (PreparedStatement delete = connection.prepareStatement(
                            "DELETE FROM mcp_servers WHERE name = ?")) {
                        delete.setString(1, name);
                        delete.executeUpdate();
                    }
                    List<SettingChange> recorded = new ArrayList<>();
                    recorded.add(SettingChanges.record(connection, database.clock().instant(), who,
                            SettingKind.SERVER.key(name), describe(old.get()), null));
                    settings.clear(connection, SettingKind.SERVER_APPROVAL_BOUND, name, who)
                            .ifPresent(recorded::add);
                    recorded.addAll(settings.clearToolDeclarations(connection, name, who));
                    return Optional.of(List.copyOf(recorded));
                });
        settings.dropCache();
        return changes;
    }

    private Optional<List<SettingChange>> save(String what, McpServerRecord server, Actor who, boolean existing) {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(who, "who");
        Optional<List<SettingChange>> changes = database.write(what, ChangeKind.SETTINGS, connection -> {
            Optional<McpServerRecord> old = select(connection, server.name()).stream().findFirst();
            if (old.isPresent() != existing) {
                return Optional.empty();
            }
            List<SettingChange> recorded = new ArrayList<>();
            String before = old.map(ServerStore::describe).orElse(null);
            String after = describe(server);
            if (!after.equals(before)) {
                upsert(connection, server);
                recorded.add(SettingChanges.record(connection, database.clock().instant(), who,
                        SettingKind.SERVER.key(server.name()), before, after));
            }
            declare(connection, server, who).ifPresent(recorded::add);
            return Optional.of(List.copyOf(recorded));
        });
        settings.dropCache();
        return changes;
    }

    private Optional<SettingChange> declare(Connection connection, McpServerRecord server, Actor who)
            throws SQLException {
        if (!server.declaration().declared()) {
            return settings.clear(connection, SettingKind.SERVER_APPROVAL_BOUND, server.name(), who);
        }
        return settings.change(connection, SettingKind.SERVER_APPROVAL_BOUND, server.name(),
                Boolean.toString(server.declaration().approvalBound()), who);
    }

    private static void upsert(Connection connection, McpServerRecord server) throws SQLException {
        try (PreparedStatement upsert = connection.prepareStatement("INSERT INTO mcp_servers (" + COLUMNS
                + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (name) DO UPDATE SET"
                + " transport = excluded.transport, command = excluded.command, arguments = excluded.arguments,"
                + " environment = excluded.environment, url = excluded.url, headers = excluded.headers,"
                + " enabled = excluded.enabled, tool_group = excluded.tool_group, data_class = excluded.data_class,"
                + " call_timeout_nanos = excluded.call_timeout_nanos,"
                + " connect_timeout_nanos = excluded.connect_timeout_nanos")) {
            upsert.setString(1, server.name());
            if (server.transport() instanceof McpServerRecord.Stdio stdio) {
                upsert.setString(2, STDIO);
                upsert.setString(3, stdio.command());
                upsert.setString(4, json(stdio.args()));
                upsert.setString(5, json(new TreeMap<>(stdio.env())));
                upsert.setString(6, null);
                upsert.setString(7, null);
            } else {
                McpServerRecord.StreamableHttp http = (McpServerRecord.StreamableHttp) server.transport();
                upsert.setString(2, STREAMABLE_HTTP);
                upsert.setString(3, null);
                upsert.setString(4, null);
                upsert.setString(5, null);
                upsert.setString(6, http.url().toString());
                upsert.setString(7, json(new TreeMap<>(http.headers())));
            }
            upsert.setBoolean(8, server.enabled());
            upsert.setString(9, server.group());
            upsert.setString(10, server.dataClass().code());
            upsert.setLong(11, server.callTimeout().toNanos());
            upsert.setLong(12, server.connectTimeout().toNanos());
            upsert.executeUpdate();
        }
    }

    private static List<McpServerRecord> select(Connection connection, String name) throws SQLException {
        // The declaration joins in from the settings; a server without a row is not declared.
        try (PreparedStatement select = connection.prepareStatement("SELECT " + COLUMNS + ", setting_value"
                + " FROM mcp_servers LEFT JOIN tool_settings ON setting_key = ? || name"
                + (name == null ? "" : " WHERE name = ?") + " ORDER BY name")) {
            select.setString(1, SettingKind.SERVER_APPROVAL_BOUND.key(""));
            if (name != null) {
                select.setString(2, name);
            }
            try (ResultSet rows = select.executeQuery()) {
                List<McpServerRecord> servers = new ArrayList<>();
                while (rows.next()) {
                    servers.add(read(rows));
                }
                return servers;
            }
        }
    }

    /** A row that no longer makes a valid record is damaged state: say which, do not guess. */
    private static McpServerRecord read(ResultSet row) throws SQLException {
        String name = row.getString(1);
        try {
            String transport = row.getString(2);
            McpServerRecord.Transport how = switch (transport) {
                case STDIO -> new McpServerRecord.Stdio(row.getString(3),
                        Json.mapper().readValue(row.getString(4), STRINGS),
                        Json.mapper().readValue(row.getString(5), PAIRS));
                case STREAMABLE_HTTP -> new McpServerRecord.StreamableHttp(URI.create(row.getString(6)),
                        Json.mapper().readValue(row.getString(7), PAIRS));
                default -> throw new IllegalArgumentException("unknown transport \"" + transport + "\"");
            };
            return new McpServerRecord(name, how, row.getBoolean(8), declaration(row.getString(13)), row.getString(9),
                    DataClass.fromCode(row.getString(10)), Duration.ofNanos(row.getLong(11)),
                    Duration.ofNanos(row.getLong(12)));
        } catch (IllegalArgumentException | JsonProcessingException e) {
            throw new SQLException("the stored MCP server record \"" + name + "\" is damaged: " + e.getMessage(), e);
        }
    }

    private static ApprovalDeclaration declaration(String stored) {
        if (stored == null) {
            return ApprovalDeclaration.NOT_DECLARED;
        }
        return switch (stored) {
            case "true" -> ApprovalDeclaration.APPROVAL_BOUND;
            case "false" -> ApprovalDeclaration.NOT_APPROVAL_BOUND;
            default -> throw new IllegalArgumentException("declaration \"" + stored + "\" is neither true nor false");
        };
    }

    /** The record as a setting change shows it: everything but the declaration, which is a setting of its own. */
    private static String describe(McpServerRecord server) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        if (server.transport() instanceof McpServerRecord.Stdio stdio) {
            node.put("transport", STDIO).put("command", stdio.command());
            stdio.args().forEach(node.putArray("args")::add);
            new TreeMap<>(stdio.env()).forEach(node.putObject("env")::put);
        } else {
            McpServerRecord.StreamableHttp http = (McpServerRecord.StreamableHttp) server.transport();
            node.put("transport", STREAMABLE_HTTP).put("url", http.url().toString());
            new TreeMap<>(http.headers()).forEach(node.putObject("headers")::put);
        }
        node.put("enabled", server.enabled()).put("group", server.group()).put("dataClass", server.dataClass().code())
                .put("callTimeout", server.callTimeout().toString())
                .put("connectTimeout", server.connectTimeout().toString());
        return node.toString();
    }

    private static String json(Object value) {
        try {
            return Json.mapper().writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a list of strings did not turn into JSON", e);
        }
    }
}
