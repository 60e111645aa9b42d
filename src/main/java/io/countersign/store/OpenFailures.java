package io.countersign.store;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Turns what went wrong while opening a store into one sentence a person can act on. */
final class OpenFailures {
    // SQLite primary result codes (the low byte of an extended code).
    private static final int SQLITE_PERM = 3;
    private static final int SQLITE_BUSY = 5;
    private static final int SQLITE_LOCKED = 6;
    private static final int SQLITE_READONLY = 8;
    private static final int SQLITE_CORRUPT = 11;
    private static final int SQLITE_CANTOPEN = 14;
    private static final int SQLITE_NOTADB = 26;
    // PostgreSQL states: a login the server turned away before asking who it is, and a missing privilege.
    private static final String CONNECTION_REJECTED = "08004";
    private static final String INSUFFICIENT_PRIVILEGE = "42501";
    private static final String WRONG_PASSWORD = "28P01";

    private OpenFailures() {
    }

    static StoreUnavailableException explain(StoreLocation location, Throwable failure, Duration busyTimeout) {
        if (failure instanceof StoreUnavailableException known) {
            return known;
        }
        SQLException cause = sqlCause(failure);
        if (location instanceof StoreLocation.Postgres postgres && cause != null) {
            Optional<LoginRefusedException> refused = refusedLogin(postgres, cause, failure);
            if (refused.isPresent()) {
                return refused.get();
            }
        }
        String sentence = location instanceof StoreLocation.SqliteFile file
                ? sqlite(file.file(), cause, failure, busyTimeout)
                : postgres((StoreLocation.Postgres) location, cause, failure);
        if (location instanceof StoreLocation.SqliteFile && cause != null && isCorrupt(cause)) {
            return new DamagedStoreException(sentence, List.of(), failure);
        }
        return new StoreUnavailableException(sentence, failure);
    }

    /** True when SQLite found the file damaged. */
    static boolean isCorrupt(SQLException e) {
        int code = e.getErrorCode() & 0xff;
        return e.getClass().getName().startsWith("org.sqlite.") && code == SQLITE_CORRUPT;
    }

    /** True when SQLite gave up waiting for another connection's lock. */
    static boolean isBusy(SQLException e) {
        int code = e.getErrorCode() & 0xff;
        return e.getClass().getName().startsWith("org.sqlite.") && (code == SQLITE_BUSY || code == SQLITE_LOCKED);
    }

    private static String sqlite(Path file, SQLException cause, Throwable failure, Duration busyTimeout) {
        int code = cause == null ? -1 : cause.getErrorCode() & 0xff;
        return switch (code) {
            case SQLITE_BUSY, SQLITE_LOCKED -> "The store file " + file + " is locked by another program, which did"
                    + " not release it within " + seconds(busyTimeout) + "; close that program or try again.";
            case SQLITE_NOTADB -> "The file " + file + " is not a Countersign store: it is not a SQLite database.";
            case SQLITE_CORRUPT -> "The store file " + file + " is damaged; restore it from a backup.";
            case SQLITE_READONLY, SQLITE_PERM -> "The store file " + file
                    + " cannot be written by this user; check its permissions.";
            case SQLITE_CANTOPEN -> cannotOpen(file);
            default -> "The store file " + file + " cannot be used: " + firstLine(failure, cause) + ".";
        };
    }

    private static String cannotOpen(Path file) {
        if (Files.isDirectory(file)) {
            return "The store path " + file + " is a folder, not a file; give the path of a store file.";
        }
        Path folder = file.toAbsolutePath().getParent();
        if (folder != null && !Files.isDirectory(folder)) {
            return "The folder " + folder + " of the store file does not exist; create it or choose another path.";
        }
        return "The store file " + file + " cannot be opened; check that this user may read and write it.";
    }

    private static String postgres(StoreLocation.Postgres location, SQLException cause, Throwable failure) {
        String url = location.describe();
        PostgresLogin login = PostgresLogin.of(location.jdbcUrl());
        String state = cause == null || cause.getSQLState() == null ? "" : cause.getSQLState();
        Optional<String> denied = missingRights(url, failure);
        if (denied.isPresent()) {
            return denied.get();
        }
        if (state.startsWith("08")) {
            return "The PostgreSQL store at " + url + " cannot be reached; check that the server is running and"
                    + " that the host and port are right.";
        }
        if (state.startsWith("28")) {
            return "The PostgreSQL store at " + url + " refused the login " + login.user().map(u -> "\"" + u + "\"")
                    .orElse("(the driver's default user)") + "; check the user name and how it may sign in.";
        }
        if (state.equals("3D000")) {
            return "The PostgreSQL database named in " + url + " does not exist; create it or fix the URL.";
        }
        return "The PostgreSQL store at " + url + " cannot be used: " + firstLine(failure, cause) + ".";
    }

    /** A login the server asked for a password it did not get, or got wrong: a person may be asked for it. */
    private static Optional<LoginRefusedException> refusedLogin(StoreLocation.Postgres location, SQLException cause,
                                                                Throwable failure) {
        String url = location.describe();
        PostgresLogin login = PostgresLogin.of(location.jdbcUrl());
        String state = cause.getSQLState() == null ? "" : cause.getSQLState();
        if (state.equals(CONNECTION_REJECTED) && cause.getMessage() != null
                && cause.getMessage().contains("no password was provided")) {
            return Optional.of(new LoginRefusedException("The PostgreSQL store at " + url + " asks for a password,"
                    + " but none was found in " + login.passwordSource() + "; add it there, or point at it with"
                    + " password=env:NAME or password=file:PATH in the URL.", LoginRefusedException.Reason.NO_PASSWORD,
                    login.user(), failure));
        }
        if (state.equals(WRONG_PASSWORD)) {
            return Optional.of(new LoginRefusedException("The PostgreSQL store at " + url + " refused the login "
                    + login.user().map(u -> "\"" + u + "\"").orElse("(the driver's default user)")
                    + ": the password from " + login.passwordSource() + " is wrong.",
                    LoginRefusedException.Reason.WRONG_PASSWORD, login.user(), failure));
        }
        return Optional.empty();
    }

    /** The sentence for a PostgreSQL login that lacks a privilege somewhere in the failure, if it does. */
    static Optional<String> missingRights(String url, Throwable failure) {
        return withState(failure, INSUFFICIENT_PRIVILEGE).map(denied -> "The PostgreSQL login for " + url
                + " may not create or change the store's tables (" + firstLine(denied, denied) + "); grant it CREATE"
                + " on the store's schema, or have the schema's owner open the store once to create them.");
    }

    /** The first SQL failure with this state anywhere in the chain: a migration tool wraps the driver's own. */
    private static Optional<SQLException> withState(Throwable failure, String state) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql) {
                for (SQLException next = sql; next != null; next = next.getNextException()) {
                    if (state.equals(next.getSQLState())) {
                        return Optional.of(next);
                    }
                }
            }
        }
        return Optional.empty();
    }

    private static SQLException sqlCause(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql) {
                return sql;
            }
        }
        return null;
    }

    /**
     * The database's own words for what failed, without the driver's framing: SQLite's detail ("table x already
     * exists", not "[SQLITE_ERROR] SQL error or missing database (...)"), PostgreSQL's message without "ERROR:".
     */
    static String databaseMessage(Throwable failure) {
        SQLException cause = sqlCause(failure);
        String line = firstLine(failure, cause);
        if (cause != null && cause.getClass().getName().startsWith("org.sqlite.") && line.endsWith(")")
                && line.startsWith("[") && line.indexOf('(') > 0) {
            return line.substring(line.indexOf('(') + 1, line.length() - 1);
        }
        return line.startsWith("ERROR: ") ? line.substring("ERROR: ".length()) : line;
    }

    private static String firstLine(Throwable failure, SQLException cause) {
        Throwable source = cause != null ? cause : failure;
        String message = source.getMessage() == null ? source.getClass().getSimpleName() : source.getMessage();
        String line = message.lines().findFirst().orElse(message).strip();
        return line.endsWith(".") ? line.substring(0, line.length() - 1) : line;
    }

    static String seconds(Duration timeout) {
        long millis = timeout.toMillis();
        return millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms";
    }
}
