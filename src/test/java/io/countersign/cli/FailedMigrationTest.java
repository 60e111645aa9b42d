package io.countersign.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A migration that fails half-way through an upgrade of the first release's store: a table of migration 25's name
 * left in the store (as a person's experiment might) makes that migration fail after 14 to 23 succeeded. The store
 * is left as it was, byte for byte on SQLite, every row and table on PostgreSQL, and the sentence names the
 * migration and the cause.
 */
class FailedMigrationTest {
    private static final String PLANTED = "CREATE TABLE %slogin_adoption (planted TEXT)";

    @TempDir
    Path folder;

    @Test
    void aSqliteStoreIsLeftByteForByteAsItWasWithItsCopyBeside() throws Exception {
        Path store = folder.resolve("countersign.db");
        try (InputStream fixture = Objects.requireNonNull(getClass().getResourceAsStream("/upgrade/v0.1-sqlite.db"))) {
            Files.copy(fixture, store);
        }
        // as the first release left its stores: in WAL mode, with a table of its own added
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + store);
             Statement statement = connection.createStatement()) {
            statement.execute("PRAGMA journal_mode = WAL");
            statement.execute(PLANTED.formatted(""));
        }
        byte[] before = Files.readAllBytes(store);
        List<String> rowsBefore = sqliteRows(store);
        CommandProcess countersign = new CommandProcess(folder, store.toString());

        CommandProcess.Result failed = countersign.runHere("--as", "root", "users");

        assertThat(failed.exitCode()).isEqualTo(Cli.UNAVAILABLE);
        assertThat(failed.err()).isEqualTo("countersign: The store " + store + " was not upgraded: migration 25"
                + " (login adoption) failed: table login_adoption already exists; the store is as it was, at schema"
                + " version 11, and this version of Countersign cannot use it.\n");
        assertThat(Files.readAllBytes(store)).isEqualTo(before);
        assertThat(folder.resolve("countersign.db-wal")).doesNotExist();
        Path copy = folder.resolve("countersign.schema-11.db");
        assertThat(sqliteRows(copy)).isEqualTo(rowsBefore);

        // once the table is gone, the upgrade goes through and the first release's people read as they did
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + store);
             Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE login_adoption");
        }
        CommandProcess.Result users = countersign.runHere("--as", "root", "users");
        assertThat(users.exitCode()).as(users.err()).isZero();
        assertThat(users.out().replaceAll("\\s", "")).isEqualTo("[{\"name\":\"jonas\",\"roles\":[\"supervisor\"]},"
                + "{\"name\":\"maria\",\"roles\":[\"operator\"]},"
                + "{\"name\":\"root\",\"roles\":[\"admin\",\"operator\",\"supervisor\"]}]");
    }

    @Test
    void aPostgresStoreKeepsEveryTableAndRow() throws Exception {
        try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().setServerConfig("fsync", "off").start()) {
            String url = postgres.getJdbcUrl("postgres", "postgres");
            try (Connection connection = DriverManager.getConnection(url);
                 Statement statement = connection.createStatement()) {
                statement.execute(fixture("v0.1-postgres.sql"));
                statement.execute(PLANTED.formatted("public."));
            }
            List<String> before = postgresState(url);

            CommandProcess.Result failed = new CommandProcess(folder, url).runHere("users");

            assertThat(failed.exitCode()).isEqualTo(Cli.UNAVAILABLE);
            assertThat(failed.err()).startsWith("countersign: The store ").contains(" was not upgraded: migration 25"
                    + " (login adoption) failed: relation \"login_adoption\" already exists; the store is as it was,"
                    + " at schema version 11, and this version of Countersign cannot use it.");
            assertThat(postgresState(url)).isEqualTo(before);
        }
    }

    /** Every row of every table of a SQLite file, with the tables' definitions. */
    private static List<String> sqliteRows(Path file) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
             Statement statement = connection.createStatement()) {
            List<String> tables = new ArrayList<>();
            try (ResultSet schema = statement.executeQuery("SELECT type, name, sql FROM sqlite_schema ORDER BY name")) {
                while (schema.next()) {
                    rows.add(schema.getString(1) + " " + schema.getString(2) + " " + schema.getString(3));
                    if (schema.getString(1).equals("table")) {
                        tables.add(schema.getString(2));
                    }
                }
            }
            for (String table : tables) {
                try (ResultSet all = statement.executeQuery("SELECT * FROM \"" + table + "\"")) {
                    int width = all.getMetaData().getColumnCount();
                    while (all.next()) {
                        StringBuilder row = new StringBuilder(table);
                        for (int column = 1; column <= width; column++) {
                            row.append(" | ").append(all.getString(column));
                        }
                        rows.add(row.toString());
                    }
                }
            }
        }
        rows.sort(null);
        return rows;
    }

    /** Every table with its columns, every row, every index of the schema public. */
    private static List<String> postgresState(String url) throws SQLException {
        List<String> state = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection(url);
             Statement statement = connection.createStatement()) {
            List<String> tables = new ArrayList<>();
            try (ResultSet columns = statement.executeQuery("SELECT table_name, column_name, data_type, is_nullable,"
                    + " column_default FROM information_schema.columns WHERE table_schema = 'public'"
                    + " ORDER BY table_name, ordinal_position")) {
                while (columns.next()) {
                    state.add("column " + columns.getString(1) + " " + columns.getString(2) + " "
                            + columns.getString(3) + " " + columns.getString(4) + " " + columns.getString(5));
                    if (!tables.contains(columns.getString(1))) {
                        tables.add(columns.getString(1));
                    }
                }
            }
            try (ResultSet indexes = statement.executeQuery("SELECT indexdef FROM pg_indexes"
                    + " WHERE schemaname = 'public'")) {
                while (indexes.next()) {
                    state.add("index " + indexes.getString(1));
                }
            }
            for (String table : tables) {
                try (ResultSet all = statement.executeQuery("SELECT t::text FROM public.\"" + table + "\" t")) {
                    while (all.next()) {
                        state.add(table + " " + all.getString(1));
                    }
                }
            }
        }
        state.sort(null);
        return state;
    }

    private static String fixture(String name) throws Exception {
        try (InputStream in = Objects.requireNonNull(FailedMigrationTest.class.getResourceAsStream("/upgrade/" + name),
                name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
