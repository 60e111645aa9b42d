package io.countersign.store;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The login a PostgreSQL store URL names, and where its password comes from. The URL never carries the password
 * itself, which would show in the process list, in shell histories and in the console's settings: pgjdbc reads it
 * from {@code ~/.pgpass} (or the file {@code PGPASSFILE} names) when the URL names none, or the URL points at it
 * with {@code password=env:NAME} or {@code password=file:PATH}, resolved only when the store connects.
 *
 * @param connectUrl the URL without its {@code password} parameter, as the driver gets it
 * @param user       the {@code user} parameter, if the URL has one (else the driver's default login)
 * @param reference  the {@code password} parameter ({@code env:NAME} or {@code file:PATH}), if any
 */
record PostgresLogin(String connectUrl, Optional<String> user, Optional<String> reference) {
    private static final String PASSWORD = "password";
    private static final String ENV = "env:";
    private static final String FILE = "file:";

    /**
     * Reads the URL's login.
     *
     * @throws IllegalArgumentException when the URL holds a password itself
     */
    static PostgresLogin of(String jdbcUrl) {
        int query = jdbcUrl.indexOf('?');
        if (query < 0) {
            return new PostgresLogin(jdbcUrl, Optional.empty(), Optional.empty());
        }
        List<String> kept = new ArrayList<>();
        String user = null;
        String reference = null;
        for (String parameter : jdbcUrl.substring(query + 1).split("&")) {
            int equals = parameter.indexOf('=');
            String key = equals < 0 ? parameter : parameter.substring(0, equals);
            String value = equals < 0 ? "" : URLDecoder.decode(parameter.substring(equals + 1), StandardCharsets.UTF_8);
            if (key.equals(PASSWORD)) {
                if (!value.startsWith(ENV) && !value.startsWith(FILE)) {
                    throw new IllegalArgumentException("The store URL holds a password, which would show in the process"
                            + " list and in logs; put it in ~/.pgpass (or the file PGPASSFILE names), or point at it"
                            + " with password=env:NAME or password=file:PATH.");
                }
                reference = value;
                continue;
            }
            if (key.equals("user")) {
                user = value;
            }
            kept.add(parameter);
        }
        String base = jdbcUrl.substring(0, query);
        return new PostgresLogin(kept.isEmpty() ? base : base + "?" + String.join("&", kept),
                Optional.ofNullable(user), Optional.ofNullable(reference));
    }

    /** The URL without its {@code user} and {@code password} parameters. */
    static String withoutLogin(String jdbcUrl) {
        int query = jdbcUrl.indexOf('?');
        if (query < 0) {
            return jdbcUrl;
        }
        List<String> kept = new ArrayList<>();
        for (String parameter : jdbcUrl.substring(query + 1).split("&")) {
            String key = parameter.contains("=") ? parameter.substring(0, parameter.indexOf('=')) : parameter;
            if (!key.equals("user") && !key.equals(PASSWORD) && !parameter.isEmpty()) {
                kept.add(parameter);
            }
        }
        String base = jdbcUrl.substring(0, query);
        return kept.isEmpty() ? base : base + "?" + String.join("&", kept);
    }

    /**
     * The password the reference points at, read now; empty when the URL names none (the driver then looks in
     * {@code ~/.pgpass}).
     *
     * @param environment the process environment, by variable name
     * @throws StoreUnavailableException when the variable is not set or the file cannot be read
     */
    Optional<String> password(UnaryOperator<String> environment) {
        if (reference.isEmpty()) {
            return Optional.empty();
        }
        String value = reference.get();
        if (value.startsWith(ENV)) {
            String name = value.substring(ENV.length());
            String password = environment.apply(name);
            if (password == null || password.isEmpty()) {
                throw new StoreUnavailableException("The store URL takes its password from the environment variable "
                        + name + ", which is not set.");
            }
            return Optional.of(password);
        }
        Path file = Path.of(value.substring(FILE.length()));
        try {
            return Optional.of(Files.readString(file).lines().findFirst().orElse("").strip());
        } catch (IOException e) {
            throw new StoreUnavailableException("The store URL takes its password from the file " + file
                    + ", which cannot be read: " + e.getMessage() + ".", e);
        }
    }

    /** Where the password was looked for, to say so when the server refuses it. */
    String passwordSource() {
        return reference.map(value -> value.startsWith(ENV)
                        ? "the environment variable " + value.substring(ENV.length())
                        : "the file " + value.substring(FILE.length()))
                .orElse("~/.pgpass or the file PGPASSFILE names");
    }
}
