package io.countersign.tools.mcp;

import io.countersign.engine.tool.McpServerRecord;

/**
 * Resolves a header or environment value of a server record at connect time: a plain value as it is, a reference
 * {@code env:NAME} (checked when the record was made) to the variable that holds the secret.
 */
final class SecretValue {
    private static final String PREFIX = McpServerRecord.SECRET_REFERENCE_PREFIX;

    private SecretValue() {
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
