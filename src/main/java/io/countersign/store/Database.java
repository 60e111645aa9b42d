package io.countersign.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import javax.sql.DataSource;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * The connection pool and the transaction discipline every repository of the store shares: reads run in
 * auto-commit; writes run in one transaction each (on SQLite begun IMMEDIATE, so a write never fails half-way
 * for want of the lock); a write that changes something listeners care about bumps its change counter in the
 * same transaction and announces it once committed.
 */
final class Database implements AutoCloseable {
    /** Keeps the holders of {@link #closeBeforeExit()} reachable, so that nothing closes them before the exit. */
    private static final List<Connection> LEFT_TO_EXIT = new CopyOnWriteArrayList<>();
    /**
     * The call with which a PostgreSQL statement defers its own transaction's commit, as {@code SET LOCAL
     * synchronous_commit = off} does in a round trip of its own; see {@link #writeDeferredByItself}.
     */
    static final String DEFER_COMMIT = "set_config('synchronous_commit', 'off', true)";

    private final HikariDataSource pool;
    private final Dialect dialect;
    private final StoreLocation location;
    private final StoreOptions options;
    private final Properties postgresProperties;
    /** The PostgreSQL URL without its password reference; {@code null} on SQLite. */
    private final String postgresUrl;
    private final ChangeFeed changes;
    /** SQLite only: a connection that lives as long as the store, so that no pool connection is ever the last. */
    private final Connection holder;
    private final AtomicLong durableCommits = new AtomicLong();
    private final AtomicLong deferredCommits = new AtomicLong();
    /** Set once a statement met a damaged file: from then on this process writes nothing to it. */
    private final AtomicReference<DamagedStoreException> damaged = new AtomicReference<>();

    private Database(HikariDataSource pool, Connection holder, Dialect dialect, StoreLocation location,
                     StoreOptions options, Properties postgresProperties, String postgresUrl) {
        this.pool = pool;
        this.holder = holder;
        this.dialect = dialect;
        this.location = location;
        this.options = options;
        this.postgresProperties = postgresProperties;
        this.postgresUrl = postgresUrl;
        this.changes = new ChangeFeed(dialect);
    }

    /** Opens the pool; a store that cannot be reached or read fails here, before anything is written. */
    static Database connect(StoreLocation location, StoreOptions options) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("countersign-store");
        config.setConnectionTimeout(Math.max(250, options.busyTimeout().toMillis()));
        config.setInitializationFailTimeout(1);
        // Connections open as work needs them: an idle console should not hold a shared server's connections.
        config.setMinimumIdle(1);
        Properties postgresProperties = new Properties();
        String postgresUrl = null;
        Dialect dialect;
        Connection holder = null;
        if (location instanceof StoreLocation.SqliteFile file) {
            dialect = Dialect.SQLITE;
            DataSource sqlite = sqlite(file, options.busyTimeout());
            config.setDataSource(StatementCache.caching(sqlite));
            // SQLite writes one at a time anyway; a few connections let reads run beside a write (WAL). None is
            // opened ahead of need: each connection syncs the folder once, at its first commit.
            config.setMaximumPoolSize(4);
            config.setMinimumIdle(0);
            // The holder's open is the check that the file can be opened.
            config.setInitializationFailTimeout(-1);
            try {
                holder = sqlite.getConnection();
            } catch (SQLException e) {
                throw OpenFailures.explain(location, e, options.busyTimeout());
            }
        } else {
            dialect = Dialect.POSTGRESQL;
            PostgresLogin login = PostgresLogin.of(((StoreLocation.Postgres) location).jdbcUrl());
            postgresUrl = login.connectUrl();
            config.setJdbcUrl(postgresUrl);
            // Read now and handed to the driver only: never in the URL, a log line or the store.
            Optional.ofNullable(options.password()).or(() -> login.password(System::getenv))
                    .ifPresent(password -> postgresProperties.setProperty("password", password));
            postgresProperties.setProperty("reWriteBatchedInserts", "true");
            // what pg_stat_activity shows of this process to a later build about to migrate (OlderProcesses)
            postgresProperties.setProperty("ApplicationName", OlderProcesses.APPLICATION_NAME);
            postgresProperties.setProperty("connectTimeout",
                    Long.toString(Math.max(1, options.busyTimeout().toSeconds())));
            config.setDataSourceProperties(postgresProperties);
            config.setMaximumPoolSize(8);
        }
        try {
            return new Database(new HikariDataSource(config), holder, dialect, location, options,
                    postgresProperties, postgresUrl);
        } catch (RuntimeException e) {
            closeQuietly(holder);
            throw OpenFailures.explain(location, e, options.busyTimeout());
        }
    }

    private static DataSource sqlite(StoreLocation.SqliteFile file, Duration busyTimeout) {
        SQLiteConfig config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        // FULL: a committed decision survives a power cut, not only a crash of the process.
        config.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
        config.enforceForeignKeys(true);
        config.setBusyTimeout((int) busyTimeout.toMillis());
        config.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
        // 16 MiB of page cache per connection (the default is 2): appending events touches nine indexes, and
        // with the default cache half the time goes to re-reading their pages.
        config.setCacheSize(-16 * 1024);
        // Inserts that want their key say RETURNING: sqlite-jdbc would otherwise compile and run a query for the
        // last row id after every insert, a decision's dozen inserts included.
        config.setGetGeneratedKeys(false);
        SQLiteDataSource dataSource = new SQLiteDataSource(config);
        dataSource.setUrl("jdbc:sqlite:" + file.file());
        return dataSource;
    }

    Dialect dialect() {
        return dialect;
    }

    Clock clock() {
        return options.clock();
    }

    StoreLocation location() {
        return location;
    }

    StoreOptions options() {
        return options;
    }

    ChangeFeed changes() {
        return changes;
    }

    DataSource dataSource() {
        return pool;
    }

    /** A connection outside the pool, for the PostgreSQL LISTEN loop that holds one for the store's lifetime. */
    Connection dedicatedConnection() throws SQLException {
        return DriverManager.getConnection(postgresUrl, postgresProperties);
    }

    /** The write transactions committed so far. */
    StoreCommits commits() {
        return new StoreCommits(durableCommits.get(), deferredCommits.get());
    }

    /** Runs read-only work in auto-commit. {@code what} completes "Countersign could not ...". */
    <T> T read(String what, SqlWork<T> work) {
        try (Connection connection = pool.getConnection()) {
            return work.run(connection);
        } catch (SQLException e) {
            throw failure(what, e);
        }
    }

    /** Runs work in one transaction. */
    <T> T write(String what, SqlWork<T> work) {
        return transaction(what, null, false, false, false, work, result -> false, false);
    }

    /**
     * Runs work in one transaction whose commit does not wait for the disk: SQLite under WAL commits it with
     * {@code synchronous=NORMAL}, PostgreSQL with {@code synchronous_commit = off}. It survives a crash of this
     * process, and the next durable commit (which writes the log in order) makes it durable; only a crash of the
     * machine before that may lose it. For writes whose loss leaves nothing wrong behind: a new run nobody was told
     * of yet, outcomes whose intents stand without them, or the registration of a process that dies with the
     * machine.
     */
    <T> T writeDeferred(String what, ChangeKind kind, SqlWork<T> work) {
        return transaction(what, kind, kind != null, true, false, work, result -> true, false);
    }

    /**
     * As {@link #writeDeferred} with no counter, for PostgreSQL work whose statement defers the commit itself by
     * calling {@link #DEFER_COMMIT}: no {@code SET LOCAL} round trip before it. On SQLite the same as
     * {@link #writeDeferred}.
     */
    <T> T writeDeferredByItself(String what, SqlWork<T> work) {
        return transaction(what, null, false, true, true, work, result -> false, false);
    }

    /**
     * As {@link #writeDeferredByItself}, for work of one statement: on PostgreSQL it runs in auto-commit, so that
     * the statement is its own transaction and its commit travels with it, one round trip in all.
     */
    <T> T writeDeferredStatement(String what, SqlWork<T> statement) {
        return dialect == Dialect.SQLITE ? writeDeferredByItself(what, statement)
                : inAutoCommit(what, deferredCommits, statement);
    }

    /**
     * As {@link #write(String, SqlWork)}, for work of one statement: on PostgreSQL it runs in auto-commit, its own
     * durable transaction, one round trip in all.
     */
    <T> T writeStatement(String what, SqlWork<T> statement) {
        return dialect == Dialect.SQLITE ? write(what, statement) : inAutoCommit(what, durableCommits, statement);
    }

    private <T> T inAutoCommit(String what, AtomicLong commits, SqlWork<T> statement) {
        refuseIfDamaged();
        try (Connection connection = pool.getConnection()) {
            T result = statement.run(connection);
            commits.incrementAndGet();
            return result;
        } catch (SQLException e) {
            throw failure(what, e);
        }
    }

    /**
     * Runs work in one transaction that also bumps the counter of {@code kind}, announced after commit. The bump
     * comes first, so its row lock serialises the writes of one kind on PostgreSQL (a settings change reads the
     * old value it records).
     */
    <T> T write(String what, ChangeKind kind, SqlWork<T> work) {
        return transaction(what, kind, true, false, false, work, result -> true, false);
    }

    /**
     * Runs work in one transaction that bumps the counter of {@code kind} only when {@code changed} says the
     * result changed something, so that a write which turned out to change nothing (a refused claim) wakes no
     * console. Such work takes its own row locks; the bump comes last.
     */
    <T> T writeIf(String what, ChangeKind kind, Predicate<? super T> changed, SqlWork<T> work) {
        return transaction(what, kind, false, false, false, work, changed, false);
    }

    /**
     * Runs work in one transaction that is committed only when the work returns a value, and rolled back when it
     * returns none, having changed nothing. Its end then waits for no flush, and frees at once the rows its
     * statements locked: on PostgreSQL an update that waited for a competing one, and then found that row no longer
     * matched, keeps the row's newest version locked to its transaction's end though it changed nothing.
     */
    <T> Optional<T> writeIfPresent(String what, SqlWork<Optional<T>> work) {
        return transaction(what, null, false, false, false, work, Optional::isPresent, true);
    }

    private <T> T transaction(String what, ChangeKind kind, boolean bumpFirst, boolean deferred,
                              boolean workDefers, SqlWork<T> work, Predicate<? super T> changed,
                              boolean rollBackUnchanged) {
        refuseIfDamaged();
        long counter = 0;
        boolean bumped = false;
        T result;
        try (Connection connection = pool.getConnection()) {
            if (deferred && dialect == Dialect.SQLITE) {
                synchronous(connection, "NORMAL");
            }
            connection.setAutoCommit(false);
            try {
                if (deferred && dialect == Dialect.POSTGRESQL && !workDefers) {
                    try (Statement off = connection.createStatement()) {
                        off.execute("SET LOCAL synchronous_commit = off");
                    }
                }
                if (kind != null && bumpFirst) {
                    counter = changes.bump(connection, kind);
                    bumped = true;
                }
                result = work.run(connection);
                if (kind != null && !bumped && changed.test(result)) {
                    counter = changes.bump(connection, kind);
                    bumped = true;
                }
                if (rollBackUnchanged && !changed.test(result)) {
                    connection.rollback();
                } else {
                    connection.commit();
                    (deferred ? deferredCommits : durableCommits).incrementAndGet();
                }
            } catch (SQLException | RuntimeException e) {
                rollback(connection, e);
                throw e;
            } finally {
                if (deferred && dialect == Dialect.SQLITE) {
                    connection.setAutoCommit(true);
                    synchronous(connection, "FULL");
                }
            }
        } catch (SQLException e) {
            throw failure(what, e);
        }
        if (bumped) {
            changes.committed(kind, counter);
        }
        return result;
    }

    /**
     * Sets SQLite's sync level for the connection's next commits; the pool's connections are FULL otherwise. A
     * prepared statement, so that the connection's statement cache compiles each of the two once.
     */
    private static void synchronous(Connection connection, String level) throws SQLException {
        try (PreparedStatement pragma = connection.prepareStatement("PRAGMA synchronous = " + level)) {
            pragma.execute();
        }
    }

    private static void rollback(Connection connection, Exception cause) {
        try {
            connection.rollback();
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }

    /**
     * Checks the SQLite file: {@code quick} for the check at open (pages only), else every index entry too.
     * On PostgreSQL it does not apply.
     */
    StoreCheck check(boolean quick) {
        if (!(location instanceof StoreLocation.SqliteFile)) {
            return new StoreCheck(location.describe(), false, List.of());
        }
        return new StoreCheck(location.describe(), true, read("check the store file",
                connection -> StoreCheck.problems(connection, quick)));
    }

    /** The sentence for a damaged file, with what SQLite's check found when it ran. */
    DamagedStoreException damage(String what, List<String> problems, Throwable cause) {
        String found = problems.isEmpty() ? "" : " (" + problems.size() + (problems.size() == 1 ? " problem" : " problems")
                + ", first: " + problems.get(0) + ")";
        return new DamagedStoreException("The store file " + location.describe() + " is damaged" + found
                + (what == null ? "" : ", found while trying to " + what) + "; Countersign writes nothing more to it:"
                + " restore it from a backup (countersign store check lists the damage).", problems, cause);
    }

    private void refuseIfDamaged() {
        DamagedStoreException known = damaged.get();
        if (known != null) {
            throw known;
        }
    }

    private StoreException failure(String what, SQLException e) {
        if (dialect == Dialect.SQLITE && OpenFailures.isCorrupt(e)) {
            damaged.compareAndSet(null, damage(what, List.of(), e));
            return damaged.get();
        }
        String why = OpenFailures.isBusy(e)
                ? "another program kept the store locked for more than "
                + OpenFailures.seconds(options.busyTimeout())
                : e.getMessage();
        return new StoreException("Countersign could not " + what + ": " + why + ".", e);
    }

    @Override
    public void close() {
        changes.stop();
        pool.close();
        // On SQLite the last connection to close checkpoints the log into the file and removes it.
        closeQuietly(holder);
    }

    /**
     * Closes like {@link #close()}, for a process that ends right after: on SQLite the holder is left to the end of
     * the process, so the write-ahead log is neither checkpointed (a sync of the log and one of the file) nor removed
     * (the next first write would sync its new header and the folder). SQLite sees an ending process holding a
     * connection as one that stopped after its last commit: every commit is already synced in the log, and the next
     * process to open the store reads the log back (as after a kill). The log stays bounded: any commit that grows
     * it past 1,000 pages checkpoints it.
     */
    void closeBeforeExit() {
        if (holder == null) {
            close();
            return;
        }
        try (Statement read = holder.createStatement()) {
            // A holder opened on a new, empty file has not met the log yet: a read makes it hold the log's lock.
            read.executeQuery("SELECT count(*) FROM sqlite_schema").close();
        } catch (SQLException e) {
            close();
            return;
        }
        changes.stop();
        pool.close();
        LEFT_TO_EXIT.add(holder);
    }

    private static void closeQuietly(Connection connection) {
        if (connection == null) {
            return;
        }
        try {
            connection.close();
        } catch (SQLException e) {
            // Nothing to do: every commit is in the log already, which the next process reads back.
            System.getLogger(Database.class.getName()).log(System.Logger.Level.DEBUG, "closing the store failed", e);
        }
    }
}
