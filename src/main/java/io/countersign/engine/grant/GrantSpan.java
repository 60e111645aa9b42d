package io.countersign.engine.grant;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.stream.Collectors;

/** How long a standing grant lasts: an hour, eight hours, or the rest of the run it was made on. */
public enum GrantSpan {
    ONE_HOUR("1h", Duration.ofHours(1)),
    EIGHT_HOURS("8h", Duration.ofHours(8)),
    REST_OF_RUN("run", null);

    private final String code;
    private final Duration length;

    GrantSpan(String code, Duration length) {
        this.code = code;
        this.length = length;
    }

    /** {@code 1h}, {@code 8h} or {@code run}, as the command line and the store name it. */
    public String code() {
        return code;
    }

    /** When a grant made at {@code at} expires; {@code null} for the rest of the run, which ends with it. */
    public Instant expiry(Instant at) {
        return length == null ? null : at.plus(length);
    }

    /**
     * The span a code names.
     *
     * @throws IllegalArgumentException naming the codes there are, when none has this one
     */
    public static GrantSpan fromCode(String code) {
        return Arrays.stream(values()).filter(span -> span.code.equals(code)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("a grant lasts " + Arrays.stream(values())
                        .map(GrantSpan::code).collect(Collectors.joining(", ")) + ", not \"" + code + "\""));
    }
}
