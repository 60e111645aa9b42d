package io.countersign.tools.mcp;

import java.util.regex.Pattern;

/**
 * A header or environment value of a server record: either a plain value or a reference {@code env:NAME} to a
 * variable that holds the secret, resolved at connect time.
 */
final class SecretValue {
    static final String PREFIX = "env:";
    private static final Pattern REFERENCE = Pattern.compile("env:[A-Za-z_][A-Za-z0-9_]*");

    private SecretValue() {
    }

    static void validate(String value, boolean secret, String where) {
        if (value == null) {
            throw new IllegalArgumentException(where + " needs a value");
        }
        if (value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0 || value.indexOf('\0') >= 0) {
            throw new IllegalArgumentException(where + " must not contain line breaks or NUL characters");
        }
        if (value.startsWith(PREFIX) && !REFERENCE.matcher(value).matches()) {
            throw new IllegalArgumentException(where + " must reference a variable like env:NAME,"
                    + " with NAME matching [A-Za-z_][A-Za-z0-9_]*");
        }
        if (secret && !value.startsWith(PREFIX)) {
            throw new IllegalArgumentException(where + " carries a secret: give a reference like env:NAME instead"
                    + " of the value, so that the secret is never stored");
        }
    }

    /** The value to use now; a reference to a variable that is not set fails naming the variable only. */
    static String resolve(String value, SecretResolver secrets, String where) {
        if (!value.startsWith(PREFIX)) {
            return value;
        }
        String variable = value.substring(PREFIX.length());
        return secrets.lookup(variable).orElseThrow(() -> new McpServerException(McpServerException.Kind.CONFIGURATION,
                where + " refers to the environment variable " + variable + ", which is not set"));
    }
}
