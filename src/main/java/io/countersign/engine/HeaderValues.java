package io.countersign.engine;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The one rule for a header or environment value an admin stores (a server record's, the telemetry export's): a
 * plain value, or a reference {@code env:NAME} to the variable that holds a secret, resolved only where the request
 * is made. A value whose name looks like a credential must be a reference, so that no secret is ever stored.
 */
public final class HeaderValues {
    /** How a value names the variable that holds a secret: {@code env:NAME}. */
    public static final String SECRET_REFERENCE_PREFIX = "env:";
    private static final Pattern SECRET_REFERENCE = Pattern.compile("env:[A-Za-z_][A-Za-z0-9_]*");
    private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

    private HeaderValues() {
    }

    /** True for a name that usually carries credentials; its value must be a reference, never the secret itself. */
    public static boolean looksSecret(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return lower.contains("auth") || lower.contains("token") || lower.contains("secret") || lower.contains("key")
                || lower.contains("password") || lower.contains("cookie") || lower.contains("credential");
    }

    /** True for an HTTP header name (an RFC 9110 token). */
    public static boolean isHeaderName(String name) {
        return name != null && TOKEN.matcher(name).matches();
    }

    /** True for a reference {@code env:NAME}; its variable is the text after the prefix. */
    public static boolean isReference(String value) {
        return value.startsWith(SECRET_REFERENCE_PREFIX);
    }

    /**
     * Checks a value to be stored.
     *
     * @param secret true when the value's name looks like a credential ({@link #looksSecret})
     * @param where  what the value belongs to, to begin the message with
     * @throws IllegalArgumentException naming what is wrong, never repeating the value
     */
    public static void requireStorable(String value, boolean secret, String where) {
        if (value == null) {
            throw new IllegalArgumentException(where + " needs a value");
        }
        if (value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0 || value.indexOf('\0') >= 0) {
            throw new IllegalArgumentException(where + " must not contain line breaks or NUL characters");
        }
        if (isReference(value) && !SECRET_REFERENCE.matcher(value).matches()) {
            throw new IllegalArgumentException(where + " must reference a variable like env:NAME,"
                    + " with NAME matching [A-Za-z_][A-Za-z0-9_]*");
        }
        if (secret && !isReference(value)) {
            throw new IllegalArgumentException(where + " carries a secret: give a reference like env:NAME instead"
                    + " of the value, so that the secret is never stored");
        }
    }
}
