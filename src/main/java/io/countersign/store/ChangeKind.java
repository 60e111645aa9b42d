package io.countersign.store;

import java.util.Arrays;
import java.util.Optional;

/** What kind of thing changed in the store; a listener reloads what it shows of that kind. */
public enum ChangeKind {
    /** A run started, paused, resumed or finished. */
    RUN("run"),
    /** A card was decided. */
    DECISION("decision"),
    /**
     * A run was queued for a worker (V28): a new run, or one taken back from a stopped worker, queued again or
     * flagged for a person. A decision committed for a worker is a {@link #DECISION}. Workers listen for these two
     * alone, not for every pause and end.
     */
    QUEUE("queue"),
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
        return known(code).orElseThrow(() -> new IllegalArgumentException("unknown change kind \"" + code + "\""));
    }

    /** The kind of this code, unless a newer build made it. */
    static Optional<ChangeKind> known(String code) {
        return Arrays.stream(values()).filter(kind -> kind.code.equals(code)).findFirst();
    }
}
