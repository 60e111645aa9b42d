package io.countersign.store;

import io.countersign.engine.RetryPolicy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/** Watches for changes made by other processes on the same database and feeds them to the {@link ChangeFeed}. */
final class ChangeWatchers {
    /** Well inside the one second within which another console must learn of a change. */
    static final Duration INTERVAL = Duration.ofMillis(200);
    private static final System.Logger LOG = System.getLogger(ChangeWatchers.class.getName());

    private ChangeWatchers() {
    }

    /** Takes the current counters as the baseline and starts the watcher that suits the database. */
    static void start(Database database) {
        ChangeFeed feed = database.changes();
        feed.baseline(database.read("read the change counters", feed::readCounters));
        feed.watchWith(database.dialect() == Dialect.SQLITE
                ? new CounterPolling(database)
                : new PostgresNotifications(database));
    }

    /** SQLite has no notifications between processes: read the counters a few times a second. */
    private static final class CounterPolling implements AutoCloseable {
        private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "countersign-change-poll");
            thread.setDaemon(true);
            return thread;
        });

        CounterPolling(Database database) {
            ChangeFeed feed = database.changes();
            timer.scheduleWithFixedDelay(() -> {
                try {
                    database.read("read the change counters", feed::readCounters).forEach(feed::observed);
                } catch (RuntimeException e) {
                    // A busy or briefly unreadable store: the next poll tries again.
                    LOG.log(System.Logger.Level.DEBUG, "polling the change counters failed", e);
                }
            }, INTERVAL.toMillis(), INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
        }

        @Override
        public void close() {
            timer.shutdownNow();
        }
    }

    /**
     * PostgreSQL: LISTEN on a connection of its own. When that connection is lost, reconnect and announce
     * every kind, since notifications sent meanwhile are gone.
     */
    private static final class PostgresNotifications implements AutoCloseable {
        /** Every second, for as long as the watcher runs: a missed notification costs a refresh, not a wait. */
        private static final RetryPolicy RECONNECTS = new RetryPolicy(Duration.ofSeconds(1), 1,
                Duration.ofSeconds(1), RetryPolicy.UNLIMITED, 0);

        private final Database database;
        private final Thread thread;
        private volatile boolean running = true;
        private volatile Connection connection;

        PostgresNotifications(Database database) {
            this.database = database;
            this.connection = listen();
            this.thread = new Thread(this::loop, "countersign-change-listen");
            thread.setDaemon(true);
            thread.start();
        }

        private Connection listen() {
            try {
                Connection listening = database.dedicatedConnection();
                try (Statement statement = listening.createStatement()) {
                    statement.execute("LISTEN " + ChangeFeed.CHANNEL);
                } catch (SQLException e) {
                    closeQuietly(listening);
                    throw e;
                }
                return listening;
            } catch (SQLException e) {
                throw new StoreException("Countersign could not listen for changes on "
                        + database.location().describe() + ": " + e.getMessage(), e);
            }
        }

        private void loop() {
            ChangeFeed feed = database.changes();
            while (running) {
                try {
                    PGNotification[] notifications = connection.unwrap(PGConnection.class)
                            .getNotifications((int) INTERVAL.toMillis());
                    if (notifications != null) {
                        for (PGNotification notification : notifications) {
                            feed.notified(notification.getParameter());
                        }
                    }
                } catch (SQLException e) {
                    if (running) {
                        reconnect(feed, e);
                    }
                }
            }
        }

        private void reconnect(ChangeFeed feed, SQLException lost) {
            LOG.log(System.Logger.Level.WARNING, "lost the change notification connection; reconnecting", lost);
            closeQuietly(connection);
            for (int attempt = 1; running; attempt++) {
                try {
                    Thread.sleep(RECONNECTS.delayBefore(attempt).toMillis());
                    if (!replaceConnection(listen())) {
                        return;
                    }
                    feed.everythingMayHaveChanged();
                    return;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                } catch (StoreException e) {
                    LOG.log(System.Logger.Level.DEBUG, "reconnecting for change notifications failed", e);
                }
            }
        }

        /** Takes the new connection, unless the watcher was closed meanwhile: then closes it. */
        private synchronized boolean replaceConnection(Connection fresh) {
            if (!running) {
                closeQuietly(fresh);
                return false;
            }
            connection = fresh;
            return true;
        }

        @Override
        public void close() {
            synchronized (this) {
                running = false;
                // Closing the connection ends a wait for notifications at once.
                closeQuietly(connection);
            }
            thread.interrupt();
            try {
                thread.join(2 * INTERVAL.toMillis() + 1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private static void closeQuietly(Connection connection) {
            try {
                connection.close();
            } catch (SQLException e) {
                LOG.log(System.Logger.Level.DEBUG, "closing the notification connection failed", e);
            }
        }
    }
}
