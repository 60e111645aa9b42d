package io.countersign.store;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * This process's registration in the store, so that the runs it drives are told from the runs of processes that
 * stopped. A process on the same host is alive while its pid runs the same program (a killed process is known
 * dead at once); one on another host while it keeps beating. Its rows are written without a sync of their own: a
 * crash of the machine that loses one also stopped the process, and the first durable commit of a run it drives
 * makes the registration durable with it.
 */
final class StoreSession implements AutoCloseable {
    static final Duration HEARTBEAT = Duration.ofSeconds(10);
    /** Generous against pauses of a live process (a laptop lid, a long collection), since adoption is final. */
    static final Duration LEASE = Duration.ofMinutes(2);
    private static final System.Logger LOG = System.getLogger(StoreSession.class.getName());

    private final Database database;
    private final boolean registered;
    private final String id = UUID.randomUUID().toString();
    private final String host = hostName();
    private final ScheduledExecutorService beat = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "countersign-session-heartbeat");
        thread.setDaemon(true);
        return thread;
    });

    private StoreSession(Database database, boolean registered) {
        this.database = database;
        this.registered = registered;
    }

    /** Registers this process in the store and starts beating. */
    static StoreSession register(Database database) {
        StoreSession session = new StoreSession(database, true);
        session.insert();
        session.beat.scheduleWithFixedDelay(session::heartbeat, HEARTBEAT.toMillis(), HEARTBEAT.toMillis(),
                TimeUnit.MILLISECONDS);
        return session;
    }

    /**
     * The session of a process that drives no run: nothing is written for it, and it owns nothing (see
     * {@link StoreOptions#drivesRuns()}).
     */
    static StoreSession unregistered(Database database) {
        return new StoreSession(database, false);
    }

    /**
     * The id the runs this process drives carry as their owner.
     *
     * @throws IllegalStateException in a process that opened the store without driving runs: a run it owned would
     *                               count as left behind by a stopped process
     */
    String id() {
        if (!registered) {
            throw new IllegalStateException("this process opened the store to read or to change settings only, so"
                    + " it cannot drive a run; nothing was written");
        }
        return id;
    }

    /**
     * The sessions whose process still runs, this one included. Rows of stopped processes are deleted on the
     * way: their runs are orphans from now on, whoever looks.
     */
    Set<String> live() {
        Instant now = database.clock().instant();
        Set<String> live = new HashSet<>();
        Set<String> dead = new HashSet<>();
        database.read("list the processes that have the store open", connection -> {
            try (PreparedStatement select = connection.prepareStatement("SELECT id, host, pid, process_started,"
                    + " heartbeat_at FROM store_sessions");
                 ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    long started = rows.getLong(4);
                    Long processStarted = rows.wasNull() ? null : started;
                    boolean alive = rows.getString(1).equals(id) || alive(host, rows.getString(2), rows.getLong(3),
                            processStarted, Nanos.toInstant(rows.getLong(5)), now);
                    (alive ? live : dead).add(rows.getString(1));
                }
            }
            return null;
        });
        for (String stopped : dead) {
            database.writeDeferred("forget the stopped process " + stopped, null, connection -> {
                try (PreparedStatement delete = connection.prepareStatement(
                        "DELETE FROM store_sessions WHERE id = ?")) {
                    delete.setString(1, stopped);
                    delete.executeUpdate();
                }
                return null;
            });
        }
        return live;
    }

    /**
     * Whether a registered process still runs, seen from this host: on the same host while its pid runs the same
     * program, on another while it beats within {@link #LEASE}.
     */
    static boolean alive(String host, String otherHost, long pid, Long processStarted, Instant heartbeat,
                         Instant now) {
        if (!otherHost.equals(host)) {
            return heartbeat.plus(LEASE).isAfter(now);
        }
        return ProcessHandle.of(pid).filter(process -> processStarted == null || process.info().startInstant()
                // The same start time, give or take the rounding of the platform: not a later process on the pid.
                .map(start -> Math.abs(start.toEpochMilli() - processStarted) < 1000).orElse(true)).isPresent();
    }

    private void insert() {
        ProcessHandle self = ProcessHandle.current();
        database.writeDeferred("register this process with the store", null, connection -> {
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO store_sessions (id, host, pid,"
                    + " process_started, opened_at, heartbeat_at) VALUES (?, ?, ?, ?, ?, ?)")) {
                long now = Nanos.of(database.clock().instant());
                insert.setString(1, id);
                insert.setString(2, host);
                insert.setLong(3, self.pid());
                Long started = self.info().startInstant().map(Instant::toEpochMilli).orElse(null);
                if (started == null) {
                    insert.setNull(4, java.sql.Types.BIGINT);
                } else {
                    insert.setLong(4, started);
                }
                insert.setLong(5, now);
                insert.setLong(6, now);
                insert.executeUpdate();
            }
            return null;
        });
    }

    private void heartbeat() {
        try {
            int beaten = database.writeDeferred("renew this process's registration", null, connection -> {
                try (PreparedStatement update = connection.prepareStatement("UPDATE store_sessions"
                        + " SET heartbeat_at = ? WHERE id = ?")) {
                    update.setLong(1, Nanos.of(database.clock().instant()));
                    update.setString(2, id);
                    return update.executeUpdate();
                }
            });
            if (beaten == 0) {
                // Another process judged this one stopped (it missed its beats) and took over its running runs;
                // the owner checks keep this process off them. Register again for the runs it starts from now on.
                LOG.log(System.Logger.Level.WARNING, "this process was taken for stopped by another; registering"
                        + " again");
                insert();
            }
        } catch (RuntimeException e) {
            // A busy or briefly unreachable store: the next beat tries again, well inside the lease.
            LOG.log(System.Logger.Level.DEBUG, "renewing the store session failed", e);
        }
    }

    /** This machine's name, as sessions record it. */
    static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            // Unknown: count as a host of its own, so that liveness falls back to the beats.
            return "unknown-" + UUID.randomUUID();
        }
    }

    /** Stops beating and deletes the registration: this process drives no run any more. */
    @Override
    public void close() {
        beat.shutdownNow();
        if (!registered) {
            return;
        }
        try {
            database.writeDeferred("unregister this process from the store", null, connection -> {
                try (PreparedStatement delete = connection.prepareStatement(
                        "DELETE FROM store_sessions WHERE id = ?")) {
                    delete.setString(1, id);
                    delete.executeUpdate();
                }
                return null;
            });
        } catch (RuntimeException e) {
            // The registration stays behind; the next reconciliation sees the process gone and removes it.
            LOG.log(System.Logger.Level.DEBUG, "unregistering the store session failed", e);
        }
    }
}
