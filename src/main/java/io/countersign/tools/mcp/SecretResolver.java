package io.countersign.tools.mcp;

import java.util.Optional;

/**
 * Port: where a secret reference ({@code env:NAME} in a server record) is resolved when a server is connected.
 * The resolved value goes only into the request header or the process environment; it is never stored or logged.
 */
@FunctionalInterface
public interface SecretResolver {

    /** The value of the named variable, or empty when it is not set. */
    Optional<String> lookup(String variable);

    /** The console process's environment variables. */
    static SecretResolver environment() {
        return variable -> Optional.ofNullable(System.getenv(variable));
    }
}
