package io.countersign.store;

import io.countersign.engine.Actor;
import io.countersign.engine.Names;
import io.countersign.engine.access.SettingChange;
import io.countersign.engine.tool.ApprovalDeclaration;
import io.countersign.engine.tool.RemoteDeclaration;
import io.countersign.engine.tool.ToolSettings;
import io.countersign.engine.Json;
import io.countersign.engine.declarative.DeclarativeRule;
import io.countersign.engine.port.DeclarativeRuleSource;
import io.countersign.engine.port.TelemetrySettings;
import io.countersign.engine.port.ToolSettingsSource;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * The admin's tool settings. {@link #current()} is served from a cache that any change drops, whether made here
 * or, announced by the {@link ChangeFeed}, by another process. Every change is recorded with who, when, and
 * the old and new value, in the same transaction. Role checks belong to the caller.
 */
public final class SettingsStore implements ToolSettingsSource, DeclarativeRuleSource {
    public static final int MAX_HOSTS = 100;
    private static final String TELEMETRY_SUBJECT = "export";
    private static final Pattern HOST = Pattern.compile(
            "(\\*\\.)?[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*");

    private final Database database;
    private final AtomicLong generation = new AtomicLong();
    private volatile Snapshot snapshot;

    /**
     * The settings as read at one generation of the cache; {@code declarers} names, by setting key, who made each
     * declaration of a server or a remote tool (the author of its last recorded change).
     */
    private record Snapshot(long generation, ToolSettings settings, Map<String, List<String>> allowedHosts,
                            Map<String, String> declarers, List<DeclarativeRule> rules) {
    }

    SettingsStore(Database database) {
        this.database = database;
        database.changes().subscribe(kind -> {
            if (kind == ChangeKind.SETTINGS) {
                generation.incrementAndGet();
            }
        });
    }

    /** The settings in force now. */
    @Override
    public ToolSettings current() {
        return snapshot().settings();
    }

    /**
     * The hosts a tool (web_fetch, for one) may reach, as the admin set them; empty when the admin set none,
     * in which case the tool's own default applies.
     */
    public Optional<List<String>> allowedHosts(String toolName) {
        return Optional.ofNullable(snapshot().allowedHosts().get(toolName));
    }

    /** The declarative rules saved now, in identifier order; the same list until the settings change. */
    @Override
    public List<DeclarativeRule> declarativeRules() {
        return snapshot().rules();
    }

    /**
     * Saves a declarative rule, new or changed, as a setting change whose new value is the rule with its note.
     *
     * @return the change, or empty when the rule already was so
     */
    public Optional<SettingChange> saveRule(DeclarativeRule rule, Actor who) {
        return change(SettingKind.INVOCATION_RULE, rule.identifier(), rule.toJson().toString(), who);
    }

    /**
     * Removes a declarative rule; the change keeps its last value.
     *
     * @return the change, or empty when no such rule was saved
     */
    public Optional<SettingChange> removeRule(String identifier, Actor who) {
        Names.requireCode(identifier, "rule identifier");
        Objects.requireNonNull(who, "who");
        Optional<SettingChange> change = database.write("remove the rule " + identifier, ChangeKind.SETTINGS,
                connection -> clear(connection, SettingKind.INVOCATION_RULE, identifier, who));
        dropCache();
        return change;
    }

    /**
     * The telemetry export as stored, read now (not from the cache: a process applies it when the change feed says
     * the settings changed, and may hear of that before the cache does); {@link TelemetrySettings#NONE} when none
     * is stored, or when what is stored cannot be read, which leaves telemetry to the environment.
     */
    public TelemetrySettings telemetry() {
        Optional<String> stored = database.read("read the telemetry settings",
                connection -> stored(connection, SettingKind.TELEMETRY.key(TELEMETRY_SUBJECT)));
        try {
            return stored.isEmpty() ? TelemetrySettings.NONE
                    : TelemetrySettings.fromJson(Json.mapper().readTree(stored.get()));
        } catch (IOException | IllegalArgumentException e) {
            return TelemetrySettings.NONE;
        }
    }

    /**
     * Saves the telemetry export, recorded like every setting change.
     *
     * @return the change, or empty when it already was so
     */
    public Optional<SettingChange> saveTelemetry(TelemetrySettings telemetry, Actor who) {
        return change(SettingKind.TELEMETRY, TELEMETRY_SUBJECT, telemetry.toJson().toString(), who);
    }

    /**
     * Turns a tool on or off.
     *
     * @return the change, or empty when the tool already was so
     */
    public Optional<SettingChange> setToolEnabled(String toolName, boolean enabled, Actor who) {
        return change(SettingKind.TOOL_ENABLED, Names.requireCode(toolName, "tool name"),
                Boolean.toString(enabled), who);
    }

    /**
     * Turns a tool group on or off.
     *
     * @return the change, or empty when the group already was so
     */
    public Optional<SettingChange> setGroupEnabled(String group, boolean enabled, Actor who) {
        return change(SettingKind.GROUP_ENABLED, Names.requireCode(group, "tool group"), Boolean.toString(enabled),
                who);
    }

    /**
     * Sets whether a configurable tool needs approval.
     *
     * @return the change, or empty when it already was so
     */
    public Optional<SettingChange> setApprovalSetting(String toolName, boolean approvalBound, Actor who) {
        return change(SettingKind.APPROVAL, Names.requireCode(toolName, "tool name"),
                Boolean.toString(approvalBound), who);
    }

    /**
     * Declares whether a remote server's tools need approval. Declaring a server nobody declared yet is a change
     * like any other.
     *
     * @return the change, or empty when it already was so
     */
    public Optional<SettingChange> setServerApprovalBound(String serverName, boolean approvalBound, Actor who) {
        return change(SettingKind.SERVER_APPROVAL_BOUND, Names.requireCode(serverName, "server name"),
                Boolean.toString(approvalBound), who);
    }

    /**
     * Declares a remote tool by itself, approval-bound or not; {@code NOT_DECLARED} takes its own declaration away,
     * so that it follows its server's again. Role checks and whether the tool is remote belong to the caller.
     *
     * @return the change, or empty when it already was so
     */
    public Optional<SettingChange> setToolDeclaration(String toolName, ApprovalDeclaration declaration, Actor who) {
        Names.requireCode(toolName, "tool name");
        if (declaration.declared()) {
            return change(SettingKind.TOOL_APPROVAL_BOUND, toolName, Boolean.toString(declaration.approvalBound()),
                    who);
        }
        Objects.requireNonNull(who, "who");
        Optional<SettingChange> change = database.write("take away the declaration of " + toolName,
                ChangeKind.SETTINGS, connection -> clear(connection, SettingKind.TOOL_APPROVAL_BOUND, toolName, who));
        dropCache();
        return change;
    }

    /**
     * The declaration a remote tool is judged on, as {@link ToolSettings#declarationOf} gives it, naming who made
     * it: the author of its last recorded change (none for a server declared before changes were recorded).
     */
    public RemoteDeclaration declarationOf(String toolName, String serverName) {
        Snapshot now = snapshot();
        RemoteDeclaration declaration = now.settings().declarationOf(toolName, serverName);
        String key = declaration.source() == RemoteDeclaration.Source.TOOL
                ? SettingKind.TOOL_APPROVAL_BOUND.key(toolName) : SettingKind.SERVER_APPROVAL_BOUND.key(serverName);
        return declaration.withDeclaredBy(now.declarers().get(key));
    }

    /**
     * The remote tools of a server that have a declaration of their own, by name in name order, each naming who made
     * it.
     */
    public Map<String, RemoteDeclaration> toolDeclarations(String serverName) {
        Snapshot now = snapshot();
        Map<String, RemoteDeclaration> declared = new TreeMap<>();
        now.settings().toolApprovalBound().keySet().stream()
                .filter(tool -> tool.startsWith(serverName + "."))
                .forEach(tool -> declared.put(tool, now.settings().declarationOf(tool, serverName)
                        .withDeclaredBy(now.declarers().get(SettingKind.TOOL_APPROVAL_BOUND.key(tool)))));
        return Collections.unmodifiableMap(declared);
    }

    /**
     * Sets the hosts a tool may reach: names like {@code example.org} or {@code *.example.org}, compared
     * without case; an empty list allows none.
     *
     * @return the change, or empty when the list already was so
     */
    public Optional<SettingChange> setAllowedHosts(String toolName, List<String> hosts, Actor who) {
        Names.requireCode(toolName, "tool name");
        if (hosts.size() > MAX_HOSTS) {
            throw new IllegalArgumentException("at most " + MAX_HOSTS + " allowed hosts per tool, got "
                    + hosts.size());
        }
        Set<String> normalised = new TreeSet<>();
        for (String host : hosts) {
            String lower = Objects.requireNonNull(host, "host").strip().toLowerCase(Locale.ROOT);
            if (lower.length() > 253 || !HOST.matcher(lower).matches()) {
                throw new IllegalArgumentException("\"" + host + "\" is not a host name; give names like"
                        + " example.org or *.example.org, without scheme, port or path");
            }
            normalised.add(lower);
        }
        return change(SettingKind.ALLOWED_HOSTS, toolName, String.join(",", normalised), who);
    }

    /** The admin changes (settings, users and roles), newest first. */
    public List<SettingChange> changes(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, got " + limit);
        }
        return database.read("read the setting changes", connection -> SettingChanges.newestFirst(connection,
                limit));
    }

    private Optional<SettingChange> change(SettingKind kind, String subject, String value, Actor who) {
        Objects.requireNonNull(who, "who");
        Optional<SettingChange> change = database.write("change the setting " + kind.key(subject),
                ChangeKind.SETTINGS, connection -> change(connection, kind, subject, value, who));
        dropCache();
        return change;
    }

    /**
     * Changes a setting inside the caller's transaction, which bumps {@link ChangeKind#SETTINGS}; the caller
     * calls {@link #dropCache()} once it has committed.
     *
     * @return the change, or empty when the setting already had this value
     */
    Optional<SettingChange> change(Connection connection, SettingKind kind, String subject, String value, Actor who)
            throws SQLException {
        String key = kind.key(subject);
        String old = stored(connection, key).orElse(kind.defaultValue());
        if (value.equals(old)) {
            return Optional.empty();
        }
        try (PreparedStatement upsert = connection.prepareStatement("INSERT INTO tool_settings"
                + " (setting_key, setting_value) VALUES (?, ?)"
                + " ON CONFLICT (setting_key) DO UPDATE SET setting_value = excluded.setting_value")) {
            upsert.setString(1, key);
            upsert.setString(2, value);
            upsert.executeUpdate();
        }
        return Optional.of(SettingChanges.record(connection, database.clock().instant(), who, key, old, value));
    }

    /**
     * Removes a setting inside the caller's transaction, so that its default (or, for a server's declaration, "not
     * declared") is in force again; the caller calls {@link #dropCache()} once it has committed.
     *
     * @return the change, or empty when no value was stored
     */
    Optional<SettingChange> clear(Connection connection, SettingKind kind, String subject, Actor who)
            throws SQLException {
        String key = kind.key(subject);
        Optional<String> old = stored(connection, key);
        if (old.isEmpty()) {
            return Optional.empty();
        }
        try (PreparedStatement delete = connection.prepareStatement(
                "DELETE FROM tool_settings WHERE setting_key = ?")) {
            delete.setString(1, key);
            delete.executeUpdate();
        }
        return Optional.of(SettingChanges.record(connection, database.clock().instant(), who, key, old.get(), null));
    }

    /**
     * Takes away the own declarations of a server's tools inside the caller's transaction, so that a server added
     * later under the same name starts from none; the caller calls {@link #dropCache()} once it has committed.
     */
    List<SettingChange> clearToolDeclarations(Connection connection, String serverName, Actor who)
            throws SQLException {
        List<String> tools = new ArrayList<>();
        String prefix = SettingKind.TOOL_APPROVAL_BOUND.key(serverName + ".");
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT setting_key FROM tool_settings WHERE setting_key LIKE ? ORDER BY setting_key")) {
            select.setString(1, prefix + "%");
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    // LIKE reads '_' as any character: keep the keys that really start with the prefix
                    if (rows.getString(1).startsWith(prefix)) {
                        tools.add(SettingKind.subjectOf(rows.getString(1)));
                    }
                }
            }
        }
        List<SettingChange> changes = new ArrayList<>();
        for (String tool : tools) {
            clear(connection, SettingKind.TOOL_APPROVAL_BOUND, tool, who).ifPresent(changes::add);
        }
        return changes;
    }

    /** Makes the next read load the settings again, so a caller sees its own change without waiting for the feed. */
    void dropCache() {
        generation.incrementAndGet();
    }

    /**
     * The cache's generation: it moves at every change of the settings, made here or announced by the feed. What is
     * read in the settings' transactions (the server records among them) may be kept for as long as it stands.
     */
    long generation() {
        return generation.get();
    }

    private static Optional<String> stored(Connection connection, String key) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT setting_value FROM tool_settings WHERE setting_key = ?")) {
            select.setString(1, key);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? Optional.of(row.getString(1)) : Optional.empty();
            }
        }
    }

    private Snapshot snapshot() {
        Snapshot cached = snapshot;
        long now = generation.get();
        if (cached != null && cached.generation() == now) {
            return cached;
        }
        Snapshot fresh = database.read("read the tool settings", connection -> load(connection, now));
        snapshot = fresh;
        return fresh;
    }

    private static Snapshot load(Connection connection, long generation) throws SQLException {
        ToolSettings settings = ToolSettings.defaults();
        Map<String, List<String>> hosts = new HashMap<>();
        Map<String, DeclarativeRule> rules = new TreeMap<>();
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT setting_key, setting_value FROM tool_settings");
             ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                String key = rows.getString(1);
                Optional<SettingKind> kind = SettingKind.ofKey(key);
                if (kind.isEmpty()) {
                    // Written by a newer build; nothing this one offers depends on it.
                    continue;
                }
                String value = rows.getString(2);
                String subject = SettingKind.subjectOf(key);
                boolean on = Boolean.parseBoolean(value);
                settings = switch (kind.get()) {
                    case TOOL_ENABLED -> settings.withToolEnabled(subject, on);
                    case GROUP_ENABLED -> settings.withGroupEnabled(subject, on);
                    case APPROVAL -> settings.withApprovalSetting(subject, on);
                    case SERVER_APPROVAL_BOUND -> settings.withServerApprovalBound(subject, on);
                    case TOOL_APPROVAL_BOUND -> settings.withToolDeclaration(subject, ApprovalDeclaration.of(on));
                    case ALLOWED_HOSTS -> {
                        hosts.put(subject, value.isEmpty() ? List.of() : List.of(value.split(",")));
                        yield settings;
                    }
                    case INVOCATION_RULE -> {
                        rules.put(subject, rule(subject, value));
                        yield settings;
                    }
                    case USER_ROLES, SERVER, LOGIN_ADOPTION -> settings; // recorded as changes only, never stored here
                    case TELEMETRY -> settings; // read on its own, by telemetry()
                };
            }
        }
        return new Snapshot(generation, settings, Map.copyOf(hosts), declarers(connection),
                List.copyOf(rules.values()));
    }

    /**
     * A stored rule; one that does not read (changed behind Countersign's back) is kept as a rule whose condition
     * cannot compile, which refuses every call, rather than dropped, which would let its calls run.
     */
    private static DeclarativeRule rule(String identifier, String value) {
        try {
            return DeclarativeRule.fromJson(Json.mapper().readTree(value));
        } catch (IOException | IllegalArgumentException e) {
            return new DeclarativeRule(identifier, "(unreadable)", new DeclarativeRule.Action.Deny("rule_failed",
                    "The rule " + identifier + " is stored in a form this build cannot read.", null),
                    DeclarativeRule.Scope.ALL, true, "");
        }
    }

    /** Who made each declaration: the author of the last change of its key (the index by key serves both). */
    private static Map<String, String> declarers(Connection connection) throws SQLException {
        Map<String, String> declarers = new HashMap<>();
        try (PreparedStatement select = connection.prepareStatement("SELECT setting_key, changed_by"
                + " FROM setting_changes WHERE setting_key LIKE ? OR setting_key LIKE ? ORDER BY id")) {
            select.setString(1, SettingKind.SERVER_APPROVAL_BOUND.key("%"));
            select.setString(2, SettingKind.TOOL_APPROVAL_BOUND.key("%"));
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    declarers.put(rows.getString(1), rows.getString(2));
                }
            }
        }
        return Map.copyOf(declarers);
    }
}
