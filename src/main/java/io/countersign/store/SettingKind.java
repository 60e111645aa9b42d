package io.countersign.store;

import java.util.Arrays;
import java.util.Optional;

/** The kinds of admin setting; a setting's key is {@code kind:subject}, its value a short text. */
enum SettingKind {
    TOOL_ENABLED("tool_enabled", "true"),
    GROUP_ENABLED("group_enabled", "true"),
    APPROVAL("approval", null),
    /** A remote server's declaration, "true" or "false"; no row: not declared, its tools run without approval. */
    SERVER_APPROVAL_BOUND("server_approval_bound", null),
    /** A remote tool's own declaration, "true" or "false", by its registry name; no row: it follows its server's. */
    TOOL_APPROVAL_BOUND("tool_approval_bound", null),
    ALLOWED_HOSTS("allowed_hosts", null),
    USER_ROLES("user_roles", null),
    /** A remote server's record (how to reach it, enabled, group, data class, timeouts); its declaration is
     * {@link #SERVER_APPROVAL_BOUND}. */
    SERVER("server", null),
    /** A declarative invocation rule, by its identifier: the rule as JSON, with the note of its last change. */
    INVOCATION_RULE("invocation_rule", null),
    /** The telemetry export, subject {@code export}: the stored form of a {@code TelemetrySettings}. */
    TELEMETRY("telemetry", null),
    /** A carried-over store's people became database logins; the subject is the schema version it came with. */
    LOGIN_ADOPTION("login_adoption", null);

    private final String code;
    private final String defaultValue;

    SettingKind(String code, String defaultValue) {
        this.code = code;
        this.defaultValue = defaultValue;
    }

    String key(String subject) {
        return code + ":" + subject;
    }

    /** The value in force while no row is stored, or {@code null} when the tool itself decides or nothing is set. */
    String defaultValue() {
        return defaultValue;
    }

    /** The kind of a stored key, or empty for a key this build does not know (written by a newer one). */
    static Optional<SettingKind> ofKey(String key) {
        int separator = key.indexOf(':');
        String code = separator < 0 ? key : key.substring(0, separator);
        return Arrays.stream(values()).filter(kind -> kind.code.equals(code)).findFirst();
    }

    static String subjectOf(String key) {
        return key.substring(key.indexOf(':') + 1);
    }
}
