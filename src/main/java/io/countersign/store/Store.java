package io.countersign.store;

import io.countersign.engine.port.ApprovalQuorums;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An open Countersign store: it owns the connection pool and hands out the repositories. Open it once per
 * process and close it on the way out; the repositories are safe to use from any thread.
 */
public final class Store implements AutoCloseable {
    /** The quick check reads about 120 MB a second here: up to 8 MiB it costs at most some 70 ms at open. */
    private static final long QUICK_CHECK_BYTES = 8L * 1024 * 1024;
    private final Database database;
    private final StoreSession session;
    private final EventStore events;
    private final SettingsStore settings;
    private final ServerStore servers;
    private final UserStore users;
    private final ConfigurationStore configurations;
    private final RunStore runs;
    private final ApprovalRows approvals;
    private final AuditStore audit;
    private final WebhookStore webhooks;
    private final DecisionStatsStore decisionStats;
    private final GrantStore grants;

    private Store(Database database, StoreSession session) {
        this.database = database;
        this.session = session;
        this.events = new EventStore(database);
        this.settings = new SettingsStore(database);
        this.servers = new ServerStore(database, settings);
        this.users = new UserStore(database);
        this.configurations = new ConfigurationStore(database);
        this.runs = new RunStore(database, session);
        this.approvals = new ApprovalRows(database);
        this.audit = new AuditStore(database);
        this.webhooks = new WebhookStore(database);
        this.decisionStats = new DecisionStatsStore(database);
        this.grants = new GrantStore(database);
    }

    /** Opens a store with the default options; see {@link #open(StoreLocation, StoreOptions)}. */
    public static Store open(StoreLocation location) {
        return open(location, StoreOptions.defaults());
    }

    /**
     * Opens the store at a location, creating or upgrading its schema. A store that cannot be used is left
     * exactly as it was.
     *
     * @throws NewerStoreException       when a newer Countersign wrote it
     * @throws StoreUnavailableException when it is locked, unreadable, not a database, not a Countersign store,
     *                                   or unreachable
     */
    public static Store open(StoreLocation location, StoreOptions options) {
        Objects.requireNonNull(location, "location");
        Objects.requireNonNull(options, "options");
        Database database = Database.connect(location, options);
        try {
            quickCheck(database);
            Migrations.apply(database);
            ChangeWatchers.start(database);
            return new Store(database, options.drivesRuns() ? StoreSession.register(database)
                    : StoreSession.unregistered(database));
        } catch (RuntimeException e) {
            database.close();
            throw OpenFailures.explain(location, e, options.busyTimeout());
        }
    }

    /**
     * A SQLite file small enough for its check to cost little is checked before anything is written to it: a
     * damaged one is not opened. A larger one is found damaged by the first statement that meets the damage,
     * and by {@link #check()}.
     */
    private static void quickCheck(Database database) {
        if (database.location() instanceof StoreLocation.SqliteFile file && sizeOf(file.file()) <= QUICK_CHECK_BYTES) {
            List<String> problems = database.check(true).problems();
            if (!problems.isEmpty()) {
                throw database.damage(null, problems, null);
            }
        }
    }

    private static long sizeOf(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }

    /**
     * Checks the whole store file ({@code PRAGMA integrity_check}, every page and index entry; on PostgreSQL it
     * does not apply). It reads every page, so it takes a while on a large store.
     */
    public StoreCheck check() {
        return database.check(false);
    }

    /**
     * Writes a backup of the whole store to a new file, as one transaction sees it: on SQLite a store file
     * ({@code VACUUM INTO}), on PostgreSQL an export of Countersign's tables from one REPEATABLE READ snapshot.
     *
     * @throws IllegalArgumentException when the file exists already
     */
    public void backup(Path file) {
        StoreBackup.backup(database, file);
    }

    /**
     * Restores a backup of this version's schema into this store, which holds no runs, events, decisions or users
     * and is open in no other process.
     *
     * @throws IllegalArgumentException   when the file is no backup, of another database or schema version, or the
     *                                    store is not empty
     * @throws StoreUnavailableException  when another process has the store open
     */
    public void restore(Path file) {
        StoreBackup.restore(database, file);
    }

    /** Where this store lives. */
    public StoreLocation location() {
        return database.location();
    }

    /** Governance events: append, query, count, purge. */
    public EventStore events() {
        return events;
    }

    /** Tool settings and the record of admin changes. */
    public SettingsStore settings() {
        return settings;
    }

    /** The operator's MCP server records, each with its server's declaration from the settings. */
    public ServerStore servers() {
        return servers;
    }

    /**
     * Makes a PostgreSQL store one its database guards: group roles, tables owned by a role nobody signs in as,
     * each group's privileges, and the decision policy (see {@code SharedStoreInit}). Run by the database's owner,
     * once and after every upgrade; running it again changes nothing more.
     *
     * @return the SQL statements it ran, in order
     * @throws IllegalArgumentException on SQLite, whose boundary is its file's permissions
     * @throws StoreException           when a table has no entry in the access map; nothing changed
     * @throws LoginsNotAdoptedException when the store's people still wait for {@link #adoptLogins}
     */
    public List<String> initShared() {
        requirePostgres();
        return database.write("prepare the shared store", ChangeKind.SETTINGS, SharedStoreInit::run);
    }

    /**
     * What adopting the logins of a PostgreSQL store carried over from Countersign 0.1 would do, while its people
     * are still operating-system names; empty for every other store.
     */
    public Optional<LoginPlan> loginPlan() {
        if (database.dialect() != Dialect.POSTGRESQL) {
            return Optional.empty();
        }
        return database.read("read the people's logins", LoginAdoption::plan);
    }

    /**
     * Adopts the logins as {@link #loginPlan} says, where that is pending, then does what {@link #initShared}
     * does, in one transaction; returns every statement, in order. Run by the login owning the store's tables.
     *
     * @throws LoginsNotAdoptedException when another login tries it; nothing changed
     */
    public List<String> adoptLogins() {
        requirePostgres();
        database.read("read who owns the store", connection -> {
            LoginAdoption.requireOwner(connection);
            return null;
        });
        return database.write("adopt the logins", ChangeKind.SETTINGS, connection -> {
            List<String> statements = new ArrayList<>(LoginAdoption.adopt(connection, database.clock().instant()));
            statements.addAll(SharedStoreInit.run(connection));
            return statements;
        });
    }

    private void requirePostgres() {
        if (database.dialect() != Dialect.POSTGRESQL) {
            throw new IllegalArgumentException("store init applies to a PostgreSQL store only: on SQLite the file's"
                    + " permissions are the boundary");
        }
    }

    /** Users and their roles. */
    public UserStore users() {
        return users;
    }

    /** Model and agent configurations. */
    public ConfigurationStore configurations() {
        return configurations;
    }

    /** Runs, their decisions and the execution journal. */
    public RunStore runs() {
        return runs;
    }

    /** The standing grants people made from cards, and the agents whose grants are off. */
    public GrantStore grants() {
        return grants;
    }

    /** The approvals cards collect while they need more than one person. */
    public ApprovalQuorums approvals() {
        return approvals;
    }

    /** The audit chain over events, decisions and purges. */
    public AuditStore audit() {
        return audit;
    }

    /** The admins' outgoing webhooks and the outbox of their events. */
    public WebhookStore webhooks() {
        return webhooks;
    }

    /** How long decisions take, from the counts kept with each decision. */
    public DecisionStatsStore decisionStats() {
        return decisionStats;
    }

    /** Signals that runs, decisions or settings changed, here or in another process on the same database. */
    public ChangeFeed changes() {
        return database.changes();
    }

    /** How many write transactions this store committed since it opened, durably and not. */
    public StoreCommits commits() {
        return database.commits();
    }

    /**
     * Stops watching for changes, unregisters this process and closes every connection. A run this process was
     * still driving is left to the next start-up's reconciliation.
     */
    @Override
    public void close() {
        session.close();
        database.close();
    }

    /**
     * As {@link #close()}, for a process that exits right after: a SQLite store's write-ahead log is left, synced,
     * for the next process to read back, instead of being checkpointed into the file with two more syncs.
     */
    public void closeBeforeExit() {
        session.close();
        database.closeBeforeExit();
    }
}
