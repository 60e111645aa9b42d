package io.countersign.store;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Before a migration: the processes that still have the store open, registered by an older build (any process on a
 * store that needs migrating was made for its schema as it is), or holding the SQLite file's locks, or connected to
 * PostgreSQL under a name an older build uses. Migrating under them would change the tables they
 * write, so the migration is refused, naming each, unless the person forces it.
 */
final class OlderProcesses {
    /** This build's connections to PostgreSQL, as {@code pg_stat_activity} names them: schema version and pid. */
    static final String APPLICATION_NAME = "countersign schema " + Migrations.SCHEMA + " pid "
            + ProcessHandle.current().pid();
    /** The driver's name for a connection that named none: how builds before V27 connected. */
    private static final String UNNAMED_JDBC = "PostgreSQL JDBC Driver";

    private OlderProcesses() {
    }

    /**
     * @param version the store's schema version now, the one the processes were made for
     * @throws OlderProcessesException naming every live process other than this one
     */
    static void refuseLive(Database database, String version) {
        List<String> live = live(database);
        if (!live.isEmpty()) {
            throw new OlderProcessesException("The store " + database.location().describe() + " is still open in "
                    + (live.size() == 1 ? "a process" : live.size() + " processes") + " of an older Countersign"
                    + " (made for schema version " + version + "): " + String.join("; ", live) + "; stop "
                    + (live.size() == 1 ? "it" : "them") + " before this version changes the schema under "
                    + (live.size() == 1 ? "it" : "them") + ", or migrate anyway with countersign store upgrade"
                    + " --force", live);
        }
    }

    /** Every live process other than this one that registered on the store, as "pid 4242 on build-3, ...". */
    static List<String> live(Database database) {
        Instant now = database.clock().instant();
        return database.read("list the processes that have the store open", connection -> {
            Set<Long> registeredHere = new HashSet<>();
            List<String> live = live(connection, now, registeredHere);
            if (database.dialect() == Dialect.POSTGRESQL) {
                live.addAll(connections(connection, now));
            } else if (database.location() instanceof StoreLocation.SqliteFile sqlite) {
                live.addAll(lockHolders(sqlite.file(), registeredHere));
            }
            return live;
        });
    }

    /**
     * The processes on this machine that hold the SQLite file open and did not register (a build from before V4, or
     * another program): their locks name them.
     */
    private static List<String> lockHolders(Path store, Set<Long> registeredHere) {
        List<String> live = new ArrayList<>();
        for (SqliteFileLocks.Holder holder : SqliteFileLocks.holders(store, ProcessHandle.current().pid())) {
            if (!registeredHere.contains(holder.pid())) {
                live.add("pid " + holder.pid() + " on this machine, which holds the store file open"
                        + (holder.command().isEmpty() ? "" : " (" + holder.command() + ")"));
            }
        }
        return live;
    }

    /**
     * The other connections to the store's database that a Countersign process may hold and did not register: those
     * of a build from before V27 carry the driver's default name, later ones {@code countersign schema N pid P}.
     * This build's own processes (of this schema) are left out; other programs name themselves otherwise.
     */
    private static List<String> connections(Connection connection, Instant now) throws SQLException {
        List<String> live = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement("SELECT application_name, pid, backend_start,"
                + " COALESCE(client_hostname, host(client_addr), 'this server') FROM pg_stat_activity"
                + " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                + " AND (application_name = ? OR (application_name LIKE 'countersign schema %'"
                + " AND application_name NOT LIKE ?)) ORDER BY backend_start");
        ) {
            select.setString(1, UNNAMED_JDBC);
            select.setString(2, "countersign schema " + Migrations.SCHEMA + " %");
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    String name = rows.getString(1);
                    Instant started = rows.getTimestamp(3).toInstant();
                    live.add((name.equals(UNNAMED_JDBC) ? "a connection of a Countersign from before schema 27 (or"
                            + " another Java program)" : "a connection of " + name) + " from " + rows.getString(4)
                            + ", server pid " + rows.getLong(2) + ", open for " + age(started, now));
                }
            }
        }
        return live;
    }

    /** The registered live processes other than this one; those on this machine go in {@code registeredHere} too. */
    private static List<String> live(Connection connection, Instant now, Set<Long> registeredHere)
            throws SQLException {
        String host = StoreSession.hostName();
        long self = ProcessHandle.current().pid();
        List<String> live = new ArrayList<>();
        try (ResultSet table = connection.getMetaData().getTables(null, connection.getSchema(), "store_sessions",
                new String[] {"TABLE"})) {
            if (!table.next()) {
                return live; // a store from before processes registered (V4)
            }
        }
        try (PreparedStatement select = connection.prepareStatement("SELECT host, pid, process_started, opened_at,"
                + " heartbeat_at FROM store_sessions ORDER BY opened_at");
             ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                String otherHost = rows.getString(1);
                long pid = rows.getLong(2);
                long started = rows.getLong(3);
                Long processStarted = rows.wasNull() ? null : started;
                Instant opened = Nanos.toInstant(rows.getLong(4));
                Instant heartbeat = Nanos.toInstant(rows.getLong(5));
                if (!(otherHost.equals(host) && pid == self)
                        && StoreSession.alive(host, otherHost, pid, processStarted, heartbeat, now)) {
                    if (otherHost.equals(host)) {
                        registeredHere.add(pid);
                    }
                    live.add("pid " + pid + " on " + otherHost + ", open for " + age(opened, now)
                            + ", last heard " + age(heartbeat, now) + " ago");
                }
            }
        }
        return live;
    }

    /** "40 s", "12 min", "3 h", "2 d": enough to tell a forgotten process from a running one. */
    private static String age(Instant since, Instant now) {
        Duration age = Duration.between(since, now);
        if (age.toMinutes() < 1) {
            return Math.max(0, age.toSeconds()) + " s";
        }
        if (age.toHours() < 1) {
            return age.toMinutes() + " min";
        }
        return age.toDays() < 1 ? age.toHours() + " h" : age.toDays() + " d";
    }
}
