package io.countersign.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process of the first release still running after this build migrated its store (store upgrade --force): its
 * next write, in the first release's own statements, fails with the database's sentence (V27), on both databases.
 * Rows such a process wrote outside the chain before V27 existed are told apart by audit verify from rows inserted
 * behind Countersign's back.
 */
class OlderWriterTest {
    private static final String REFUSED = "a newer Countersign migrated this store to schema version 27: this older"
            + " process may not write to it; stop it and use the newer version";
    /** The first release's statements (commit 5745275: EventStore.INSERT, RunStore's insert and its queue claim). */
    private static final String OLD_EVENT = "INSERT INTO governance_events (id, event_time, event_type, reason_code,"
            + " tool_name, rule_id, run_id, agent_configuration, actor, model, detail) VALUES ('old-worker', 1,"
            + " 'tool_denied', 'outside_workspace', 'fs_read', 'workspace.boundary', NULL, 'a', 'maria', 'm', NULL)";
    private static final String OLD_RUN = "INSERT INTO runs (id, agent, initiator, prompt, unattended, status,"
            + " created_at, updated_at, pause_number, transcript, history, iterations, prompt_tokens,"
            + " completion_tokens, owner, queued_at) VALUES ('old-run', 'a', 'maria', 'p', FALSE, 'queued', 1, 1, 0,"
            + " '[]', '{}', 0, 0, 0, NULL, 1)";
    private static final String OLD_CLAIM = "UPDATE runs SET status = 'running', worker_id = 'w', lease_expires = 1,"
            + " updated_at = 1, queued_at = NULL, owner = NULL WHERE status = 'queued'";

    @TempDir
    Path folder;

    @Test
    void onSqliteTheFirstReleasesWritesFailAndVerifyTellsOlderWritesFromForgedOnes() throws Exception {
        Path store = folder.resolve("countersign.db");
        try (InputStream fixture = Objects.requireNonNull(getClass().getResourceAsStream("/upgrade/v0.1-sqlite.db"))) {
            Files.copy(fixture, store);
        }
        CommandProcess countersign = new CommandProcess(folder, store.toString());
        assertThat(countersign.runHere("store", "upgrade").exitCode()).isZero();
        String url = "jdbc:sqlite:" + store;

        assertRefused(url, OLD_EVENT);
        assertRefused(url, OLD_RUN);
        // a run queued by this build, claimed the way the first release's worker claims
        CommandProcess.Result queued = countersign.runHere("--as", "root", "run", "--agent", "workspace-auditor",
                "--prompt", "What is there?", "--queue");
        assertThat(queued.exitCode()).as(queued.err()).isZero();
        assertRefused(url, OLD_CLAIM);

        // a store a build before V27 migrated while a first-release worker wrote to it: its event has no version
        try (Connection connection = DriverManager.getConnection(url);
             Statement statement = connection.createStatement()) {
            statement.execute("DROP TRIGGER governance_events_of_an_older_build");
            statement.execute(OLD_EVENT);
        }
        CommandProcess.Result older = countersign.runHere("--as", "root", "audit", "verify");
        assertThat(older.exitCode()).as(older.out() + older.err()).isZero();
        assertThat(older.json().path("begins").asText()).endsWith("; the 1 row written outside it by a Countersign"
                + " older than the chain (made for schema version 13 or before) while it ran on after the store was"
                + " migrated are not covered either");
        // one written with this build's version and in no entry was inserted behind its back
        try (Connection connection = DriverManager.getConnection(url);
             Statement statement = connection.createStatement()) {
            statement.execute(OLD_EVENT.replace("'old-worker'", "'forged'").replace("detail)",
                    "detail, written_at_schema)").replace("NULL)", "NULL, 27)"));
        }
        CommandProcess.Result forged = countersign.runHere("--as", "root", "audit", "verify");
        assertThat(forged.exitCode()).isEqualTo(Cli.TAMPERED);
        assertThat(forged.err()).isEqualTo("countersign: audit: event forged is in no entry of the chain: it was"
                + " inserted\n");
    }

    @Test
    void onPostgresTheFirstReleasesWritesFail() throws Exception {
        try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().setServerConfig("fsync", "off").start()) {
            String url = postgres.getJdbcUrl("postgres", "postgres");
            try (Connection connection = DriverManager.getConnection(url);
                 Statement statement = connection.createStatement()) {
                statement.execute(fixture("v0.1-postgres.sql"));
            }
            CommandProcess.Result upgraded = new CommandProcess(folder, url).runHere("store", "upgrade");
            assertThat(upgraded.exitCode()).as(upgraded.err()).isZero();

            assertRefused(url, OLD_EVENT);
            assertRefused(url, OLD_RUN);
            try (Connection connection = DriverManager.getConnection(url);
                 Statement statement = connection.createStatement()) {
                statement.execute("INSERT INTO runs (id, agent, initiator, prompt, unattended, status, created_at,"
                        + " updated_at, pause_number, transcript, history, iterations, prompt_tokens,"
                        + " completion_tokens, queued_at, written_at_schema) VALUES ('new-run', 'a', 'maria', 'p',"
                        + " FALSE, 'queued', 1, 1, 0, '[]', '{}', 0, 0, 0, 1, 27)");
            }
            assertRefused(url, OLD_CLAIM);
        }
    }

    private static void assertRefused(String url, String sql) {
        assertThatThrownBy(() -> {
            try (Connection connection = DriverManager.getConnection(url);
                 Statement statement = connection.createStatement()) {
                statement.execute(sql);
            }
        }).isInstanceOf(SQLException.class).hasMessageContaining(REFUSED);
    }

    private static String fixture(String name) throws Exception {
        try (InputStream in = Objects.requireNonNull(OlderWriterTest.class.getResourceAsStream("/upgrade/" + name),
                name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
