package io.countersign.engine.chat;

import io.countersign.engine.tool.DataClass;
import java.util.Arrays;

/** Where a model runs, and so the most sensitive data class that may be offered to it. */
public enum TrustZone {
    LOCAL("local", DataClass.SECRET_ADJACENT),
    PRIVATE_HOSTED("privateHosted", DataClass.SYSTEM_DIAGNOSTICS),
    EXTERNAL_EU("externalEu", DataClass.INTERNAL_CONFIGURATION),
    EXTERNAL_GLOBAL("externalGlobal", DataClass.EDITOR_CONTENT);

    private final String code;
    private final DataClass ceiling;

    TrustZone(String code, DataClass ceiling) {
        this.code = code;
        this.ceiling = ceiling;
    }

    public String code() {
        return code;
    }

    /** The most sensitive data class a model in this zone may see. */
    public DataClass ceiling() {
        return ceiling;
    }

    public boolean permits(DataClass dataClass) {
        return dataClass.isAtMost(ceiling);
    }

    public static TrustZone fromCode(String code) {
        return Arrays.stream(values())
                .filter(value -> value.code.equals(code))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown trust zone \"" + code
                        + "\"; expected one of " + Arrays.stream(values()).map(TrustZone::code).toList()));
    }
}
