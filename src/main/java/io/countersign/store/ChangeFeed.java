package io.countersign.store;

import io.countersign.engine.port.StoreChanges;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Tells subscribers that something of a {@link ChangeKind} changed in the store: at once for changes made
 * through this store, within a second for changes made by other processes on the same database (SQLite: by
 * polling the change counters; PostgreSQL: by LISTEN/NOTIFY). Signals may be coalesced or repeated; a listener
 * reloads what it shows, so neither matters.
 */
public final class ChangeFeed implements StoreChanges {
    static final String CHANNEL = "countersign_changes";
    private static final System.Logger LOG = System.getLogger(ChangeFeed.class.getName());

    private final Dialect dialect;
    /** Marks this store's own notifications, which it has already delivered in-process. */
    private final String origin = UUID.randomUUID().toString();
    private final List<ChangeListener> listeners = new CopyOnWriteArrayList<>();
    private final Map<ChangeKind, Long> seen = new ConcurrentHashMap<>();
    private static final String DELIVERY_THREAD = "countersign-change-delivery";
    /** How long closing waits for the listeners already told of a change; they reload a screen or a setting. */
    private static final Duration STOP_WAIT = Duration.ofSeconds(2);
    private final ExecutorService delivery = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, DELIVERY_THREAD);
        thread.setDaemon(true);
        return thread;
    });
    private volatile AutoCloseable watcher;
    private volatile boolean stopped;

    ChangeFeed(Dialect dialect) {
        this.dialect = dialect;
    }

    /** A subscription; closing it stops the deliveries to its listener. */
    @FunctionalInterface
    public interface Subscription extends AutoCloseable {
        @Override
        void close();
    }

    /** Adds a listener, called on the feed's delivery thread for every change from now on. */
    public Subscription subscribe(ChangeListener listener) {
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }

    /** A run's own change or its decision's, a queued run's among them: what a screen of runs listens for. */
    @Override
    public StoreChanges.Subscription onRunChange(Runnable listener) {
        return onKinds(listener, ChangeKind.RUN, ChangeKind.DECISION, ChangeKind.QUEUE);
    }

    /** A run queued, or a decision (committed for a worker among them): what a worker waiting for work listens for. */
    @Override
    public StoreChanges.Subscription onQueueChange(Runnable listener) {
        return onKinds(listener, ChangeKind.QUEUE, ChangeKind.DECISION);
    }

    /** A change of the settings, the server records among them: what keeps the remote servers connected. */
    @Override
    public StoreChanges.Subscription onSettingsChange(Runnable listener) {
        return onKinds(listener, ChangeKind.SETTINGS);
    }

    private StoreChanges.Subscription onKinds(Runnable listener, ChangeKind... kinds) {
        Set<ChangeKind> wanted = Set.of(kinds);
        Subscription subscription = subscribe(kind -> {
            if (wanted.contains(kind)) {
                listener.run();
            }
        });
        return subscription::close;
    }

    /**
     * Bumps the counter of a kind inside the caller's transaction (on PostgreSQL also queues a NOTIFY, sent at
     * commit). The row lock it takes serialises concurrent changes of the same kind on PostgreSQL.
     *
     * @return the new counter, to pass to {@link #committed} once the transaction has committed
     */
    long bump(Connection connection, ChangeKind kind) throws SQLException {
        // One statement, one round trip: every write of runs and settings pays it.
        String sql = dialect == Dialect.POSTGRESQL
                ? "WITH bumped AS (UPDATE change_counters SET counter = counter + 1 WHERE kind = ? RETURNING counter)"
                + " SELECT counter, pg_notify(?, ?) FROM bumped"
                : "UPDATE change_counters SET counter = counter + 1 WHERE kind = ? RETURNING counter";
        try (PreparedStatement bump = connection.prepareStatement(sql)) {
            bump.setString(1, kind.code());
            if (dialect == Dialect.POSTGRESQL) {
                bump.setString(2, CHANNEL);
                bump.setString(3, kind.code() + ":" + origin);
            }
            try (ResultSet row = bump.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }

    /**
     * The NOTIFY call of a PostgreSQL statement that announces its own change without a counter, queued with the
     * statement's transaction and sent at its commit. Its two named parameters are bound by {@link #bindNotify}.
     */
    static final String NOTIFY_CALL = "pg_notify(:notifyChannel, :notifyPayload)";

    /** Binds the parameters of a {@link #NOTIFY_CALL}. */
    void bindNotify(NamedStatement statement, ChangeKind kind) throws SQLException {
        statement.set("notifyChannel", CHANNEL).set("notifyPayload", kind.code() + ":" + origin);
    }

    /** A change made through this store has committed: tell the listeners now. */
    void committed(ChangeKind kind, long counter) {
        seen.merge(kind, counter, Math::max);
        deliver(kind);
    }

    /** A change announced by its NOTIFY alone (see {@link #NOTIFY_CALL}) has committed: tell the listeners now. */
    void committed(ChangeKind kind) {
        deliver(kind);
    }

    /** Reads every counter (before watching starts, so that old changes are not announced). */
    Map<ChangeKind, Long> readCounters(Connection connection) throws SQLException {
        Map<ChangeKind, Long> counters = new EnumMap<>(ChangeKind.class);
        try (PreparedStatement select = connection.prepareStatement("SELECT kind, counter FROM change_counters");
             ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                // a newer build's kind of change is nobody's here
                Optional<ChangeKind> kind = ChangeKind.known(rows.getString(1));
                if (kind.isPresent()) {
                    counters.put(kind.get(), rows.getLong(2));
                }
            }
        }
        return counters;
    }

    /** Reads the counter of one kind, in the caller's transaction. */
    long readCounter(Connection connection, ChangeKind kind) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT counter FROM change_counters WHERE kind = ?")) {
            select.setString(1, kind.code());
            try (ResultSet row = select.executeQuery()) {
                if (!row.next()) {
                    throw new SQLException("the store has no change counter \"" + kind.code() + "\"");
                }
                return row.getLong(1);
            }
        }
    }

    /** A poll found a counter; announce it if it moved past what this store has seen. */
    void observed(ChangeKind kind, long counter) {
        boolean[] moved = {false};
        seen.compute(kind, (key, before) -> {
            moved[0] = before == null || counter > before;
            return moved[0] ? counter : before;
        });
        if (moved[0]) {
            deliver(kind);
        }
    }

    /** Starts from these counters without announcing anything. */
    void baseline(Map<ChangeKind, Long> counters) {
        counters.forEach((kind, counter) -> seen.merge(kind, counter, Math::max));
    }

    /** A NOTIFY payload arrived; announce it unless this store sent it. */
    void notified(String payload) {
        int separator = payload.indexOf(':');
        if (separator < 0 || payload.substring(separator + 1).equals(origin)) {
            return;
        }
        try {
            deliver(ChangeKind.fromCode(payload.substring(0, separator)));
        } catch (IllegalArgumentException e) {
            LOG.log(System.Logger.Level.WARNING, "ignoring an unknown change notification: {0}", payload);
        }
    }

    /** Announces every kind, after the watcher may have missed changes (a lost PostgreSQL connection). */
    void everythingMayHaveChanged() {
        for (ChangeKind kind : ChangeKind.values()) {
            deliver(kind);
        }
    }

    void watchWith(AutoCloseable changesFromOtherProcesses) {
        this.watcher = changesFromOtherProcesses;
    }

    private void deliver(ChangeKind kind) {
        try {
            delivery.execute(() -> {
                for (ChangeListener listener : listeners) {
                    if (stopped) {
                        return;
                    }
                    try {
                        listener.changed(kind);
                    } catch (RuntimeException e) {
                        // One broken listener must not starve the others.
                        LOG.log(System.Logger.Level.WARNING, "a change listener failed", e);
                    }
                }
            });
        } catch (RejectedExecutionException e) {
            // Closed: nobody is listening any more.
        }
    }

    /**
     * Stops watching and delivering; the store calls this when it closes. A delivery already under way is waited
     * for (briefly), so that no listener reads the store after its connections are closed.
     */
    void stop() {
        AutoCloseable current = watcher;
        if (current != null) {
            try {
                current.close();
            } catch (Exception e) {
                LOG.log(System.Logger.Level.WARNING, "stopping the change watcher failed", e);
            }
        }
        stopped = true;
        delivery.shutdown();
        if (Thread.currentThread().getName().equals(DELIVERY_THREAD)) {
            return; // a listener closing the store: waiting here would wait for itself
        }
        try {
            if (!delivery.awaitTermination(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                delivery.shutdownNow();
            }
        } catch (InterruptedException e) {
            delivery.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
