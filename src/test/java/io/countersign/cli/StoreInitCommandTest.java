package io.countersign.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.countersign.store.EmbeddedPostgresExtension;
import io.countersign.store.Store;
import io.countersign.store.StoreLocation;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** {@code countersign store init}: a shared PostgreSQL store, and the stores it refuses in one line. */
@ExtendWith(EmbeddedPostgresExtension.class)
class StoreInitCommandTest {
    @TempDir
    Path folder;

    @Test
    void initPrintsTheSqlItRanAndTheOwnerIsTheFirstAdmin(EmbeddedPostgres postgres) throws Exception {
        String url = schema(postgres, "init_ok");

        CommandProcess.Result init = new CommandProcess(folder, url).runHere("store", "init");

        assertThat(init.exitCode()).as(init.err()).isZero();
        assertThat(init.json().path("admin").asText()).isEqualTo("postgres");
        assertThat(init.json().path("statements").toString()).contains("ALTER TABLE \\\"init_ok\\\".\\\"runs\\\" OWNER"
                + " TO countersign_owner");
        assertThat(owner(postgres, "init_ok", "decisions")).isEqualTo("countersign_owner");
    }

    @Test
    void aTableWithNoEntryInTheAccessMapIsRefusedAndNothingChanges(EmbeddedPostgres postgres) throws Exception {
        String url = schema(postgres, "init_unknown");
        Store.open(new StoreLocation.Postgres(url)).close();
        try (Connection connection = postgres.getPostgresDatabase().getConnection();
             Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE init_unknown.reports_of_another_program (id BIGINT PRIMARY KEY)");
        }

        CommandProcess.Result refused = new CommandProcess(folder, url).runHere("store", "init");

        assertThat(refused.exitCode()).isEqualTo(Cli.UNAVAILABLE);
        assertThat(refused.err()).isEqualTo("countersign: store init found the table reports_of_another_program with no entry in the"
                + " map of who may do what (io.countersign.store.SharedAccess); add one for each before sharing the"
                + " store, nothing was changed\n");
        assertThat(owner(postgres, "init_unknown", "decisions")).isEqualTo("postgres");
    }

    @Test
    void aSqliteStoreHasNothingToInit() {
        CommandProcess.Result refused = new CommandProcess(folder, folder.resolve("store.db").toString())
                .runHere("store", "init");

        assertThat(refused.exitCode()).isEqualTo(Cli.BAD_USAGE);
        assertThat(refused.err()).isEqualTo("countersign: store init applies to a PostgreSQL store only: on SQLite the"
                + " file's permissions are the boundary\n");
    }

    private static String schema(EmbeddedPostgres postgres, String name) throws Exception {
        try (Connection connection = postgres.getPostgresDatabase().getConnection();
             Statement statement = connection.createStatement()) {
            statement.execute("CREATE SCHEMA " + name);
        }
        return postgres.getJdbcUrl("postgres", "postgres") + "&currentSchema=" + name;
    }

    private static String owner(EmbeddedPostgres postgres, String schema, String table) throws Exception {
        try (Connection connection = postgres.getPostgresDatabase().getConnection();
             Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SELECT tableowner FROM pg_tables WHERE schemaname = '" + schema
                     + "' AND tablename = '" + table + "'")) {
            row.next();
            return row.getString(1);
        }
    }
}
