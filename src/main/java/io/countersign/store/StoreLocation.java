package io.countersign.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Where the store lives: a SQLite file on one desk, or a PostgreSQL database shared by a team.
 */
public sealed interface StoreLocation {

    /** The environment variable that names the store when no {@code --store} value is given. */
    String ENVIRONMENT_VARIABLE = "COUNTERSIGN_STORE";

    /** What to show a person: the file, or the URL without its parameters (which may hold a password). */
    String describe();

    /** A SQLite database file. */
    record SqliteFile(Path file) implements StoreLocation {
        public SqliteFile {
            Objects.requireNonNull(file, "file");
        }

        @Override
        public String describe() {
            return file.toString();
        }
    }

    /**
     * A PostgreSQL database. The login is the URL's {@code user} parameter; its password is never in the URL, only
     * pointed at ({@code password=env:NAME}, {@code password=file:PATH}) or found in {@code ~/.pgpass}.
     */
    record Postgres(String jdbcUrl) implements StoreLocation {
        static final String PREFIX = "jdbc:postgresql://";

        /** @throws IllegalArgumentException for another kind of URL, or one that holds a password itself */
        public Postgres {
            Objects.requireNonNull(jdbcUrl, "jdbcUrl");
            if (!jdbcUrl.startsWith(PREFIX)) {
                throw new IllegalArgumentException("a PostgreSQL store URL starts with " + PREFIX);
            }
            PostgresLogin.of(jdbcUrl);
        }

        /** The login the URL names; empty when the driver chooses its default. */
        public Optional<String> user() {
            return PostgresLogin.of(jdbcUrl).user();
        }

        /** The URL without its login: no {@code user}, no {@code password} reference. */
        public String withoutLogin() {
            return PostgresLogin.withoutLogin(jdbcUrl);
        }

        /**
         * This store as another login, whose password the person gives for this process: the URL's user replaced,
         * its password reference dropped.
         */
        public Postgres as(String user) {
            String base = withoutLogin();
            return new Postgres(base + (base.indexOf('?') < 0 ? "?" : "&") + "user="
                    + URLEncoder.encode(user, StandardCharsets.UTF_8));
        }

        @Override
        public String describe() {
            int parameters = jdbcUrl.indexOf('?');
            return parameters < 0 ? jdbcUrl : jdbcUrl.substring(0, parameters);
        }

        @Override
        public String toString() {
            return "Postgres[" + describe() + "]";
        }
    }

    /**
     * Chooses the store: the {@code --store} value if given (a file path or a {@code jdbc:postgresql://} URL),
     * else {@value #ENVIRONMENT_VARIABLE} if set and not blank, else {@code $XDG_DATA_HOME/countersign/countersign.db}, else
     * {@code $HOME/.local/share/countersign/countersign.db}. The default's folder is created here, so that the
     * first start on a desk just works.
     *
     * @param cliValue the {@code --store} value, or {@code null}
     * @param env      the process environment ({@code System.getenv()})
     * @throws IllegalArgumentException for a value that is blank, another kind of JDBC URL, or not a path
     */
    public static StoreLocation resolve(String cliValue, Map<String, String> env) {
        if (cliValue != null) {
            return parse(cliValue, "--store");
        }
        String fromEnvironment = env.get(ENVIRONMENT_VARIABLE);
        if (nonBlank(fromEnvironment)) {
            return parse(fromEnvironment, ENVIRONMENT_VARIABLE);
        }
        return new SqliteFile(defaultFolder(env).resolve("countersign.db"));
    }

    /**
     * Where the person's own files live beside the store (the demo workspace, the gateway's token): the folder of a
     * SQLite store's file, else the default data folder, {@code $XDG_DATA_HOME/countersign} or
     * {@code $HOME/.local/share/countersign}, created here if need be.
     */
    public static Path dataFolder(StoreLocation location, Map<String, String> env) {
        return location instanceof SqliteFile file ? file.file().toAbsolutePath().getParent() : defaultFolder(env);
    }

    private static Path defaultFolder(Map<String, String> env) {
        Path dataHome = nonBlank(env.get("XDG_DATA_HOME")) ? Path.of(env.get("XDG_DATA_HOME"))
                : home(env).resolve(".local").resolve("share");
        Path folder = dataHome.resolve("countersign");
        try {
            Files.createDirectories(folder);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the store folder " + folder + ": " + e.getMessage(), e);
        }
        return folder;
    }

    private static StoreLocation parse(String value, String source) {
        if (value.isBlank()) {
            throw new IllegalArgumentException(source + " is empty; give a file path or a " + Postgres.PREFIX
                    + " URL");
        }
        if (value.startsWith(Postgres.PREFIX)) {
            return new Postgres(value);
        }
        if (value.startsWith("jdbc:")) {
            throw new IllegalArgumentException(source + " \"" + value.split("\\?")[0]
                    + "\" is not supported; give a file path for SQLite or a " + Postgres.PREFIX + " URL");
        }
        try {
            return new SqliteFile(Path.of(value).toAbsolutePath());
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException(source + " \"" + value + "\" is not a valid file path: "
                    + e.getReason(), e);
        }
    }

    private static Path home(Map<String, String> env) {
        String home = env.get("HOME");
        return Path.of(nonBlank(home) ? home : System.getProperty("user.home"));
    }

    private static boolean nonBlank(String value) {
        return value != null && !value.isBlank();
    }
}
