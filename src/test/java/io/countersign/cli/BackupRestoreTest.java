package io.countersign.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Instant;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code store backup} and {@code store restore} on both databases: the demo's store, backed up and restored into a
 * new store, reads the same (inbox, users, every event as CSV, the audit chain verified); the refusals are one
 * sentence each.
 */
class BackupRestoreTest {
    @TempDir
    Path folder;

    @Test
    void aSqliteStoreComesBackWhole() throws Exception {
        Path store = folder.resolve("countersign.db");
        Path copy = folder.resolve("restored.db");
        Path backup = folder.resolve("before-friday.db");
        CommandProcess original = new CommandProcess(folder, store.toString());
        CommandProcess restored = new CommandProcess(folder, copy.toString());
        CommandProcess.Result demo = original.runHere("demo", "--folder",
                folder.resolve("demo").toString());
        assertThat(demo.exitCode()).as(demo.err()).isZero();

        CommandProcess.Result written = original.runHere("store", "backup", backup.toString());
        CommandProcess.Result restoring = restored.runHere("store", "restore", backup.toString());

        assertThat(written.exitCode()).as(written.err()).isZero();
        assertThat(restoring.exitCode()).as(restoring.err()).isZero();
        assertSameStore(original, restored);
        assertThat(original.runHere("store", "backup", backup.toString()).err())
                .isEqualTo("countersign: The file " + backup + " exists already; a backup goes to a new file.\n");
        CommandProcess.Result overInUse = original.runHere("store", "restore", backup.toString());
        assertThat(overInUse.exitCode()).isEqualTo(Cli.BAD_USAGE);
        assertThat(overInUse.err()).isEqualTo("countersign: The store " + store + " already holds runs; restore into"
                + " a new store (a new file, or an empty database or schema), never over one in use.\n");
    }

    @Test
    void aBackupOfAnotherVersionOrStillInUseIsRefused() throws Exception {
        Path old = folder.resolve("v0.1.db");
        try (InputStream fixture = Objects.requireNonNull(getClass().getResourceAsStream("/upgrade/v0.1-sqlite.db"))) {
            Files.copy(fixture, old);
        }
        Path store = folder.resolve("new.db");
        CommandProcess countersign = new CommandProcess(folder, store.toString());

        CommandProcess.Result older = countersign.runHere("--as", "root", "store", "restore", old.toString());

        assertThat(older.exitCode()).isEqualTo(Cli.BAD_USAGE);
        assertThat(older.err()).isEqualTo("countersign: The backup " + old + " was taken at schema version 11 and"
                + " this Countersign's is 28; restore it with the version of Countersign that took it, then open the"
                + " store with this one to migrate it.\n");
        // a worker on another machine still beats on the store
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + store);
             PreparedStatement insert = connection.prepareStatement("INSERT INTO store_sessions (id, host, pid,"
                     + " process_started, opened_at, heartbeat_at) VALUES ('w', 'build-3', 4242, NULL, ?, ?)")) {
            long now = Instant.now().toEpochMilli() * 1_000_000;
            insert.setLong(1, now);
            insert.setLong(2, now);
            insert.executeUpdate();
        }
        CommandProcess.Result inUse = countersign.runHere("--as", "root", "store", "restore", old.toString());
        assertThat(inUse.exitCode()).isEqualTo(Cli.UNAVAILABLE);
        assertThat(inUse.err()).matches("countersign: The store \\S+ is in use \\(pid 4242 on build-3, open for \\d+ s,"
                + " last heard \\d+ s ago\\); stop every Countersign process on it before restoring into it.\n");
        Path notABackup = folder.resolve("notes.txt");
        Files.writeString(notABackup, "hello\n");
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + store);
             Statement statement = connection.createStatement()) {
            statement.execute("DELETE FROM store_sessions");
        }
        assertThat(countersign.runHere("--as", "root", "store", "restore", notABackup.toString()).err())
                .isEqualTo("countersign: The file " + notABackup + " is not a Countersign backup: it starts with"
                        + " neither a SQLite header nor a countersign-backup-1 line.\n");
    }

    @Test
    void aPostgresStoreComesBackWhole() throws Exception {
        try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().setServerConfig("fsync", "off").start()) {
            try (Connection server = postgres.getPostgresDatabase().getConnection();
                 Statement statement = server.createStatement()) {
                statement.execute("CREATE DATABASE restored");
            }
            CommandProcess original = new CommandProcess(folder, postgres.getJdbcUrl("postgres", "postgres"));
            CommandProcess restored = new CommandProcess(folder, postgres.getJdbcUrl("postgres", "restored"));
            Path backup = folder.resolve("team.backup");
            assertThat(original.runHere("demo", "--folder", folder.resolve("demo").toString()).exitCode()).isZero();

            CommandProcess.Result written = original.runHere("store", "backup", backup.toString());
            CommandProcess.Result restoring = restored.runHere("store", "restore", backup.toString());

            assertThat(written.exitCode()).as(written.err()).isZero();
            assertThat(Files.readAllLines(backup).get(0)).startsWith("{\"format\":\"countersign-backup-1\","
                    + "\"database\":\"postgresql\",\"versions\":[\"1\",\"2\",");
            assertThat(restoring.exitCode()).as(restoring.err()).isZero();
            assertSameStore(original, restored);
            CommandProcess.Result again = restored.runHere("store", "restore", backup.toString());
            assertThat(again.exitCode()).isEqualTo(Cli.BAD_USAGE);
            assertThat(again.err()).contains("already holds runs");
            assertThat(new CommandProcess(folder, folder.resolve("x.db").toString()).runHere("--as", "root",
                    "store", "restore", backup.toString()).err()).isEqualTo("countersign: The backup " + backup + " is of a PostgreSQL"
                    + " store; restore it into a PostgreSQL store.\n");
        }
    }

    private static void assertSameStore(CommandProcess original, CommandProcess restored, String... as) {
        for (String[] command : new String[][] {{"inbox"}, {"users"}, {"events", "--all", "--format", "csv"},
                {"tools"}}) {
            CommandProcess.Result before = original.runHere(with(as, command));
            CommandProcess.Result after = restored.runHere(with(as, command));
            assertThat(before.exitCode()).as(before.err()).isZero();
            assertThat(after.out()).as(String.join(" ", command)).isEqualTo(before.out());
        }
        CommandProcess.Result verified = restored.runHere(with(as, "audit", "verify"));
        assertThat(verified.exitCode()).as(verified.out() + verified.err()).isZero();
    }

    private static String[] with(String[] as, String... args) {
        if (as.length == 0) {
            return args;
        }
        String[] all = new String[args.length + 2];
        all[0] = "--as";
        all[1] = as[0];
        System.arraycopy(args, 0, all, 2, args.length);
        return all;
    }
}
