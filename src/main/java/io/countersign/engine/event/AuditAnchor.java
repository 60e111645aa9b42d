package io.countersign.engine.event;

import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A point of the audit chain to keep elsewhere (a ticket, another system): the entry's number and its hash. A
 * chain rewritten before that entry no longer has this hash there.
 */
public record AuditAnchor(long seq, String hash) {
    private static final Pattern TEXT = Pattern.compile("(\\d{1,18}):([0-9a-f]{64})");

    public AuditAnchor {
        Objects.requireNonNull(hash, "hash");
    }

    /** The anchor as {@code countersign audit anchor} prints it and {@code --anchor} takes it: {@code SEQ:HASH}. */
    public String text() {
        return seq + ":" + hash;
    }

    /** Reads {@code SEQ:HASH}; a clear refusal for anything else. */
    public static AuditAnchor parse(String text) {
        Matcher matcher = TEXT.matcher(text == null ? "" : text.strip());
        if (!matcher.matches()) {
            throw new IllegalArgumentException("\"" + text + "\" is not an audit anchor; give SEQ:HASH as countersign"
                    + " audit anchor printed it (a number, a colon and 64 lower-case hex digits)");
        }
        return new AuditAnchor(Long.parseLong(matcher.group(1)), matcher.group(2));
    }
}
