package io.countersign.cli;

import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.store.StoreLocation;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code countersign audit verify} and {@code audit anchor} on the demo's SQLite store, tampered with through raw
 * JDBC: a child process names what was changed, removed or inserted, one line each, with exit code 6.
 */
class AuditCommandsTest {
    @TempDir
    Path folder;
    Path file;
    CommandProcess countersign;

    @BeforeEach
    void demoStore() {
        file = folder.resolve("countersign.db");
        countersign = new CommandProcess(folder, file.toString());
        try (CountersignRuntime runtime = CountersignRuntime.open(new StoreLocation.SqliteFile(file))) {
            runtime.localUser();
            runtime.ensureDemo(folder);
        }
    }

    private String execute(String update, String query) throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
             Statement statement = connection.createStatement()) {
            String found = null;
            if (query != null) {
                try (ResultSet row = statement.executeQuery(query)) {
                    found = row.next() ? row.getString(1) : null;
                }
            }
            statement.executeUpdate(update.replace("?", found == null ? "" : found));
            return found;
        }
    }

    @Test
    void theDemoVerifiesAndItsAnchorIsItsHead() {
        CommandProcess.Result anchor = countersign.runHere("audit", "anchor");
        assertThat(anchor.exitCode()).as(anchor.err()).isZero();
        String kept = anchor.json().path("anchor").asText();
        assertThat(kept).matches("\\d+:[0-9a-f]{64}");

        CommandProcess.Result verify = countersign.runHere("audit", "verify", "--anchor", kept);

        assertThat(verify.exitCode()).as(verify.err()).isZero();
        assertThat(verify.json().path("verified").asBoolean()).isTrue();
        assertThat(verify.json().path("head").asText()).isEqualTo(kept);
        assertThat(verify.json().path("begins").asText()).startsWith("audit chain begins at entry 1, ");
        assertThat(verify.json().path("rowsChecked").asLong()).isPositive();
    }

    @Test
    void aChangedByteIsNamedByAChildProcessWithExitCodeSix() throws SQLException {
        String id = execute("UPDATE governance_events SET tool_name = 'fs_delets' WHERE id = '?'",
                "SELECT id FROM governance_events WHERE tool_name = 'fs_delete'");

        CommandProcess.Result verify = countersign.run("audit", "verify");

        assertThat(verify.exitCode()).as(verify.err()).isEqualTo(Cli.TAMPERED);
        assertThat(verify.json().path("verified").asBoolean()).isFalse();
        assertThat(verify.err().lines().toList()).containsExactly("countersign: audit: event " + id + " (entry "
                + verify.json().path("findings").get(0).path("entry").asLong() + ") was changed: its stored values"
                + " do not make the hash the chain recorded");
    }

    @Test
    void aRemovedAndAnInsertedEventAreEachNamed() throws SQLException {
        String removed = execute("DELETE FROM governance_events WHERE id = '?'",
                "SELECT id FROM governance_events ORDER BY event_time DESC LIMIT 1");
        // forged as this build writes: with the schema version every event of a build since 27 carries
        execute("INSERT INTO governance_events (id, event_time, event_type, written_at_schema) VALUES ('forged', 0,"
                + " 'tool_denied', 27)", null);

        CommandProcess.Result verify = countersign.runHere("audit", "verify");

        assertThat(verify.exitCode()).isEqualTo(Cli.TAMPERED);
        assertThat(verify.err().lines().toList()).hasSize(2).anySatisfy(line -> assertThat(line)
                .startsWith("countersign: audit: event " + removed + " (entry ").endsWith(") was removed: it is not"
                        + " stored and no purge lists it")).contains("countersign: audit: event forged is in no entry"
                + " of the chain: it was inserted");
    }

    @Test
    void aPurgeVerifiesAsAPurgeByItsAdmin() {
        CommandProcess.Result purge = countersign.runHere("events", "purge", "--older-than", "0d");
        assertThat(purge.exitCode()).as(purge.err()).isZero();

        long deleted = purge.json().path("deleted").asLong();
        assertThat(deleted).isPositive();

        CommandProcess.Result verify = countersign.runHere("audit", "verify");

        assertThat(verify.exitCode()).as(verify.err()).isZero();
        assertThat(verify.json().path("purges").get(0).asText()).startsWith("purge of " + deleted
                + (deleted == 1 ? " event" : " events") + " before ")
                .contains(" by " + System.getProperty("user.name") + " (entry ");
    }

    @Test
    void anAnchorThatIsNotOneIsRefusedAsUsage() {
        CommandProcess.Result verify = countersign.runHere("audit", "verify", "--anchor", "12:abc");

        assertThat(verify.exitCode()).isEqualTo(Cli.BAD_USAGE);
        assertThat(verify.err()).isEqualTo("countersign: \"12:abc\" is not an audit anchor; give SEQ:HASH as"
                + " countersign audit anchor printed it (a number, a colon and 64 lower-case hex digits)"
                + System.lineSeparator());
    }
}
