package io.countersign.engine.tool;

import java.util.Arrays;

/** How sensitive the data a tool touches is, least to most sensitive; the order is the declaration order. */
public enum DataClass {
    PUBLIC_CONTENT("publicContent"),
    EDITOR_CONTENT("editorContent"),
    SOURCE_CODE("sourceCode"),
    INTERNAL_CONFIGURATION("internalConfiguration"),
    SYSTEM_DIAGNOSTICS("systemDiagnostics"),
    SECRET_ADJACENT("secretAdjacent");

    private final String code;

    DataClass(String code) {
        this.code = code;
    }

    /** The stable name used in settings, events and JSON. */
    public String code() {
        return code;
    }

    public boolean isAtMost(DataClass ceiling) {
        return compareTo(ceiling) <= 0;
    }

    public static DataClass fromCode(String code) {
        return Arrays.stream(values())
                .filter(value -> value.code.equals(code))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown data class \"" + code
                        + "\"; expected one of " + Arrays.stream(values()).map(DataClass::code).toList()));
    }
}
