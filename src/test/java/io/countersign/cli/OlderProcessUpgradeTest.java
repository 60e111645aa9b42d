package io.countersign.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The first release's SQLite store while a process of that release still has it open (a worker on another machine,
 * beating): this build names it and migrates nothing until told {@code store upgrade --force}.
 */
class OlderProcessUpgradeTest {
    /** Named with what the store knows of it: host, pid, how long it has had the store open, its last heartbeat. */
    private static final String REFUSAL = "countersign: The store \\S+ is still open in a process of an older"
            + " Countersign \\(made for schema version 11\\): pid 4242 on build-3, open for 12 min, last heard \\d+ s"
            + " ago; stop it before this version changes the schema under it, or migrate anyway with countersign store"
            + " upgrade --force\n";

    @TempDir
    Path folder;
    private Path store;

    @BeforeEach
    void storeWithAnOlderWorkerBeating() throws Exception {
        store = folder.resolve("countersign.db");
        try (InputStream fixture = Objects.requireNonNull(getClass().getResourceAsStream("/upgrade/v0.1-sqlite.db"))) {
            Files.copy(fixture, store);
        }
        Instant now = Instant.now();
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + store);
             PreparedStatement insert = connection.prepareStatement("INSERT INTO store_sessions (id, host, pid,"
                     + " process_started, opened_at, heartbeat_at) VALUES (?, ?, ?, NULL, ?, ?)")) {
            register(insert, "live", 4242, now.minus(Duration.ofMinutes(12)), now.minusSeconds(3));
            // stopped long ago: it beats no more, and nobody waits for it
            register(insert, "stopped", 77, now.minus(Duration.ofDays(2)), now.minus(Duration.ofHours(1)));
        }
    }

    @Test
    void theMigrationIsRefusedNamingTheProcess() {
        CommandProcess.Result inbox = new CommandProcess(folder, store.toString()).runHere("--as", "maria", "inbox");
        CommandProcess.Result upgrade = new CommandProcess(folder, store.toString()).runHere("store", "upgrade");

        assertThat(inbox.exitCode()).isEqualTo(Cli.UNAVAILABLE);
        assertThat(inbox.err()).matches(REFUSAL);
        assertThat(upgrade.exitCode()).isEqualTo(Cli.UNAVAILABLE);
        assertThat(upgrade.err()).matches(REFUSAL);
    }

    @Test
    void forcedTheStoreIsMigratedAndWorks() {
        CommandProcess countersign = new CommandProcess(folder, store.toString());

        CommandProcess.Result upgrade = countersign.runHere("store", "upgrade", "--force");

        assertThat(upgrade.exitCode()).as(upgrade.err()).isZero();
        assertThat(upgrade.json().path("upToDate").asBoolean()).isTrue();
        CommandProcess.Result inbox = countersign.runHere("--as", "maria", "inbox");
        assertThat(inbox.exitCode()).as(inbox.err()).isZero();
        assertThat(inbox.json()).hasSize(2);
    }

    @Test
    void waitingTheStoreIsMigratedOnceTheProcessStops() throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + store);
             PreparedStatement lastBeat = connection.prepareStatement(
                     "UPDATE store_sessions SET heartbeat_at = ? WHERE id = 'live'")) {
            // its last heartbeat two seconds before its lease ends: it stopped beating
            lastBeat.setLong(1, nanos(Instant.now().minus(Duration.ofMinutes(2)).plusSeconds(2)));
            lastBeat.executeUpdate();
        }

        CommandProcess.Result upgrade = new CommandProcess(folder, store.toString()).runHere("store", "upgrade",
                "--wait");

        assertThat(upgrade.exitCode()).as(upgrade.err()).isZero();
        assertThat(upgrade.err()).startsWith("countersign: waiting for the older processes on the store to stop:"
                + " pid 4242 on build-3, open for 12 min, last heard ");
        assertThat(upgrade.json().path("upToDate").asBoolean()).isTrue();
    }

    @Test
    void aProcessThatHoldsTheFileOpenWithoutRegisteringIsNamedByItsLock() throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + store);
             PreparedStatement forget = connection.prepareStatement("DELETE FROM store_sessions")) {
            forget.executeUpdate();
        }
        Process holder = new ProcessBuilder("python3", "-c", "import sqlite3, sys\n"
                + "store = sqlite3.connect(sys.argv[1])\n"
                + "store.execute('PRAGMA journal_mode=WAL').fetchall()\n"
                + "store.execute('SELECT count(*) FROM runs').fetchall()\n"
                + "print('open', flush=True)\n"
                + "sys.stdin.read()\n", store.toString()).redirectErrorStream(true).start();
        try {
            assertThat(new String(holder.getInputStream().readNBytes(5), StandardCharsets.UTF_8)).isEqualTo("open\n");

            CommandProcess.Result upgrade = new CommandProcess(folder, store.toString()).runHere("store", "upgrade");

            assertThat(upgrade.exitCode()).isEqualTo(Cli.UNAVAILABLE);
            assertThat(upgrade.err()).startsWith("countersign: The store " + store + " is still open in a process of"
                    + " an older Countersign (made for schema version 11): pid " + holder.pid() + " on this machine,"
                    + " which holds the store file open (").contains("python3 -c import sqlite3");
        } finally {
            holder.getOutputStream().close();
            holder.waitFor();
        }
        CommandProcess.Result upgrade = new CommandProcess(folder, store.toString()).runHere("store", "upgrade");
        assertThat(upgrade.exitCode()).as(upgrade.err()).isZero();
    }

    private static void register(PreparedStatement insert, String id, long pid, Instant opened, Instant heartbeat)
            throws Exception {
        insert.setString(1, id);
        insert.setString(2, "build-3");
        insert.setLong(3, pid);
        insert.setLong(4, nanos(opened));
        insert.setLong(5, nanos(heartbeat));
        insert.executeUpdate();
    }

    private static long nanos(Instant instant) {
        return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
    }
}
