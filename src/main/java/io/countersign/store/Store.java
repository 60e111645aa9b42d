package io.countersign.store;

import java.util.Objects;

/**
 * An open Countersign store: it owns the connection pool and hands out the repositories. Open it once per
 * process and close it on the way out; the repositories are safe to use from any thread.
 */
public final class Store implements AutoCloseable {
    private final Database database;
    private final StoreSession session;
    private final EventStore events;
    private final SettingsStore settings;
    private final ServerStore servers;
    private final UserStore users;
    private final ConfigurationStore configurations;
    private final RunStore runs;

    private Store(Database database, StoreSession session) {
        this.database = database;
        this.session = session;
        this.events = new EventStore(database);
        this.settings = new SettingsStore(database);
        this.servers = new ServerStore(database, settings);
        this.users = new UserStore(database);
        this.configurations = new ConfigurationStore(database);
        this.runs = new RunStore(database, session);
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
            Migrations.apply(database);
            ChangeWatchers.start(database);
            return new Store(database, options.drivesRuns() ? StoreSession.register(database)
                    : StoreSession.unregistered(database));
        } catch (RuntimeException e) {
            database.close();
            throw OpenFailures.explain(location, e, options.busyTimeout());
        }
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
}
