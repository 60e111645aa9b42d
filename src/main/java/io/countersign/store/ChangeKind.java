package io.countersign.store;

import java.util.Arrays;

/** What kind of thing changed in the store; a listener reloads what it shows of that kind. */
public enum ChangeKind {
    /** A run started, paused, resumed or finished. */
    RUN("run"),
    /** A card was decided. */
    DECISION("decision"),
    /** An admin changed tool settings, users or roles. */
    SETTINGS("settings");

    private final String code;

    ChangeKind(String code) {
        this.code = code;
    }

    /** The key of this kind in the {@code change_counters} table and in notifications. */
    public String code() {
        return code;
    }

    static ChangeKind fromCode(String code) {
        return Arrays.stream(values()).filter(kind -> kind.code.equals(code)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown change kind \"" + code + "\""));
    }
}
