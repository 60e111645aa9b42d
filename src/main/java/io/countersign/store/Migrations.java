package io.countersign.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationInfoService;
import org.flywaydb.core.api.MigrationState;
import org.flywaydb.core.api.callback.Callback;
import org.flywaydb.core.api.callback.Context;
import org.flywaydb.core.api.callback.Event;

/** Brings a store's schema up to this build's version, and refuses stores this build must not touch. */
final class Migrations {
    static final String LOCATION = "classpath:db/migration";
    /** The placeholder V25 reads: the version of a store whose people are operating-system names, else empty. */
    static final String OS_NAMES_VERSION = "os_names_version";
    /** The versions of this build's migrations, {@code V<version>__*.sql} in {@link #LOCATION}. */
    static final Set<String> VERSIONS = Set.of("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13",
            "14", "16", "17", "18", "19", "20", "21", "23", "25", "26", "27", "28");
    /**
     * The schema version this build is made for, written with every event, decision and run it adds
     * ({@code written_at_schema}, V27): a row without it was written by an older build.
     */
    static final int SCHEMA = 28;

    private Migrations() {
    }

    /**
     * Refuses a store written by a newer build or holding another program's tables, then applies the pending
     * migrations.
     *
     * @throws NewerStoreException        for schema versions this build does not know
     * @throws StoreUnavailableException  for a database that is not a Countersign store, or a failed migration
     */
    static void apply(Database database) {
        // Flyway costs about a second of a cold process, even with nothing to do: the console waits for it
        if (upToDate(database)) {
            return;
        }
        if (database.location() instanceof StoreLocation.SqliteFile file) {
            // Flyway takes no lock on SQLite: processes creating one new store at once would each see the
            // other's first tables and no history yet. They take turns on a lock file beside the store.
            synchronized (Migrations.class) {
                try (FileChannel lockFile = FileChannel.open(lockFileOf(file.file()), StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE); FileLock held = lockFile.lock()) {
                    if (!upToDate(database)) {
                        migrate(database);
                    }
                } catch (IOException e) {
                    throw new StoreUnavailableException("The store " + database.location().describe()
                            + " cannot be migrated: its lock file " + lockFileOf(file.file()) + " cannot be locked ("
                            + e.getMessage() + ")", e);
                }
            }
            return;
        }
        migrate(database);
    }

    /** The file that processes migrating the same SQLite store lock in turn. */
    static Path lockFileOf(Path store) {
        return store.resolveSibling(store.getFileName() + "-migration.lock");
    }

    private static void migrate(Database database) {
        MigrationUnderWay underWay = new MigrationUnderWay();
        Flyway flyway = Flyway.configure(Migrations.class.getClassLoader())
                .dataSource(database.dataSource())
                .locations(LOCATION)
                .placeholders(placeholders(database))
                // Both databases roll DDL back: the pending migrations are one transaction, so one that fails
                // leaves the store at the version it had, not half-way.
                .group(true)
                .callbacks(underWay)
                // Like the pool, Flyway logs through SLF4J: the application chooses where that goes.
                .loggers("slf4j")
                .load();
        String where = database.location().describe();
        String before = null;
        try {
            MigrationInfoService info = flyway.info();
            refuseNewer(info, where);
            // Read the history again after finding tables: another process may have migrated in between.
            if (info.applied().length == 0 && hasTables(database) && flyway.info().applied().length == 0) {
                throw new StoreUnavailableException("The database " + where + " already holds tables that are not a"
                        + " Countersign store; point the store at a new file, or an empty database or schema.");
            }
            if (info.pending().length > 0 && info.current() != null) {
                before = info.current().getVersion().getVersion();
                if (!database.options().migrateUnderOlderProcesses()) {
                    OlderProcesses.refuseLive(database, before);
                }
                if (database.location() instanceof StoreLocation.SqliteFile file) {
                    StoreCopies.beforeMigration(database, file.file(), before);
                }
            }
            flyway.migrate();
        } catch (FlywayException e) {
            String from = before;
            throw new StoreUnavailableException(OpenFailures.missingRights(where, e).orElseGet(() -> failed(where,
                    from, underWay.current, e)), e);
        }
    }

    /** "... migration 25 (login adoption) failed: table login_adoption already exists; it is as it was ...". */
    private static String failed(String where, String before, MigrationInfo migration, FlywayException e) {
        if (migration == null) {
            return "The store " + where + " cannot be brought to this version of Countersign: "
                    + e.getMessage().lines().findFirst().orElse("").strip();
        }
        return "The store " + where + " was not upgraded: migration " + migration.getVersion().getVersion() + " ("
                + migration.getDescription() + ") failed: " + OpenFailures.databaseMessage(e)
                + "; the store is as it was" + (before == null ? " (empty)" : ", at schema version " + before)
                + ", and this version of Countersign cannot use it.";
    }

    /** Remembers the migration Flyway began last: when the upgrade fails, it is the one that failed. */
    private static final class MigrationUnderWay implements Callback {
        private MigrationInfo current;

        @Override
        public boolean supports(Event event, Context context) {
            return event == Event.BEFORE_EACH_MIGRATE;
        }

        @Override
        public boolean canHandleInTransaction(Event event, Context context) {
            return true;
        }

        @Override
        public void handle(Event event, Context context) {
            current = context.getMigrationInfo();
        }

        @Override
        public String getCallbackName() {
            return "countersign-migration-under-way";
        }
    }

    /** The dialect's placeholders, and the version of a store whose people must adopt their logins (V25). */
    private static Map<String, String> placeholders(Database database) {
        Map<String, String> placeholders = new HashMap<>(database.dialect().migrationPlaceholders());
        LoginAdoption.osNamesVersion(database).ifPresent(version -> placeholders.put(OS_NAMES_VERSION, version));
        return placeholders;
    }

    private static void refuseNewer(MigrationInfoService info, String where) {
        List<String> unknown = Arrays.stream(info.applied())
                .filter(migration -> migration.getState() == MigrationState.FUTURE_SUCCESS
                        || migration.getState() == MigrationState.FUTURE_FAILED)
                .map(migration -> migration.getVersion().getVersion())
                .toList();
        if (!unknown.isEmpty()) {
            String latestKnown = Arrays.stream(info.all())
                    .filter(migration -> migration.getState().isResolved() && migration.getVersion() != null)
                    .max(Comparator.comparing(MigrationInfo::getVersion))
                    .map(migration -> migration.getVersion().getVersion())
                    .orElse("none");
            throw new NewerStoreException(where, unknown, latestKnown);
        }
    }

    /**
     * Whether the store's history lists exactly this build's migrations, each applied successfully: such a store
     * needs nothing from Flyway. Any other history (none, a failed, a missing or an unknown migration) goes
     * through Flyway, which applies, refuses or explains.
     */
    private static boolean upToDate(Database database) {
        try (Connection connection = database.dataSource().getConnection();
             Statement statement = connection.createStatement();
             ResultSet history = statement.executeQuery(
                     "SELECT version, success FROM flyway_schema_history WHERE version IS NOT NULL")) {
            Set<String> applied = new HashSet<>();
            while (history.next()) {
                if (!history.getBoolean(2) || !applied.add(history.getString(1))) {
                    return false;
                }
            }
            return applied.equals(VERSIONS);
        } catch (SQLException e) {
            // no history table yet, or one this check cannot read: Flyway decides
            return false;
        }
    }

    private static boolean hasTables(Database database) {
        return database.read("inspect the store's tables", connection -> {
            try (ResultSet tables = connection.getMetaData()
                    .getTables(null, connection.getSchema(), "%", new String[] {"TABLE"})) {
                return tables.next();
            }
        });
    }
}
