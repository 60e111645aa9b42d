package io.countersign.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.countersign.store.Store;
import io.countersign.store.StoreLocation;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The first release's PostgreSQL store while a process of that release holds a connection to it without having
 * registered (one that only reads, say): PostgreSQL's {@code pg_stat_activity} names it, with the driver's default
 * name that builds before schema 27 connected under, and the migration waits for it as for a registered one. This
 * build's own connections carry its schema version and pid.
 */
class OlderConnectionUpgradeTest {
    @TempDir
    Path folder;

    @Test
    void anUnregisteredConnectionOfAnOlderBuildIsNamedBeforeMigrating() throws Exception {
        try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().setServerConfig("fsync", "off").start()) {
            String url = postgres.getJdbcUrl("postgres", "postgres");
            try (Connection connection = DriverManager.getConnection(url);
                 Statement statement = connection.createStatement()) {
                statement.execute(fixture());
            }
            CommandProcess countersign = new CommandProcess(folder, url);

            CommandProcess.Result refused;
            try (Connection older = DriverManager.getConnection(url)) {
                refused = countersign.runHere("store", "upgrade");
            }
            CommandProcess.Result upgraded = countersign.runHere("store", "upgrade");

            assertThat(refused.exitCode()).isEqualTo(Cli.UNAVAILABLE);
            assertThat(refused.err()).matches("countersign: The store \\S+ is still open in a process of an older"
                    + " Countersign \\(made for schema version 11\\): a connection of a Countersign from before schema"
                    + " 27 \\(or another Java program\\) from \\S+, server pid \\d+, open for \\d+ s; stop it before"
                    + " this version changes the schema under it, or migrate anyway with countersign store upgrade"
                    + " --force\n");
            assertThat(upgraded.exitCode()).as(upgraded.err()).isZero();
            // while a store of this build is open, its connections say who they are
            try (Store store = Store.open(new StoreLocation.Postgres(url));
                 Connection connection = DriverManager.getConnection(url);
                 Statement statement = connection.createStatement();
                 ResultSet names = statement.executeQuery("SELECT count(*) FROM pg_stat_activity"
                         + " WHERE application_name = 'countersign schema 28 pid " + ProcessHandle.current().pid()
                         + "'")) {
                names.next();
                assertThat(names.getLong(1)).isPositive();
            }
        }
    }

    private static String fixture() throws Exception {
        try (InputStream in = Objects.requireNonNull(OlderConnectionUpgradeTest.class
                .getResourceAsStream("/upgrade/v0.1-postgres.sql"))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
