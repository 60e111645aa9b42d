package io.countersign.cli;

import static org.assertj.core.api.Assertions.assertThat;
import com.fasterxml.jackson.databind.JsonNode;
import io.countersign.engine.Actor;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.engine.port.WaitingRun;
import io.countersign.store.StoreLocation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real {@code countersign worker} process on a SQLite file: it checks the run owner's roles for every run it
 * takes, so once an admin takes a person's roles it does no more work in their name; and SIGTERM stops it
 * cleanly, with its report and exit code 0, holding no run.
 */
class WorkerProcessTest {
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @TempDir
    Path folder;

    @Test
    void workerStopsWorkingForAPersonWhoseRolesAreRemovedAndStopsCleanlyOnSigterm() throws Exception {
        Path file = folder.resolve("countersign.db");
        CommandProcess countersign = new CommandProcess(folder, file.toString());
        String queued;
        WaitingRun notes;
        try (CountersignRuntime runtime = CountersignRuntime.open(new StoreLocation.SqliteFile(file))) {
            runtime.localUser();
            runtime.ensureDemo(folder);
            Actor maria = runtime.user("maria");
            notes = runtime.runs().inbox(maria).stream().filter(run -> run.agent().equals("release-notes-bot"))
                    .findFirst().orElseThrow();
            queued = runtime.execution().enqueue(maria, "intake-form", "File a bug while she may", false).runId();
        }
        Path notesFile = folder.resolve("demo-workspace/release-notes/NOTES.md");
        String notesBefore = Files.readString(notesFile);

        CommandProcess.Running worker = countersign.start(Map.of(), "worker", "--threads", "2");
        awaitLine(worker, ": ran run " + queued);

        assertThat(countersign.run("user", "set", "maria", "--roles", "none").exitCode()).isZero();
        CommandProcess.Result decided = countersign.runAs("jonas", "decide", notes.runId(), "--digest",
                notes.digest(), "--approve-all", "--queue");
        assertThat(decided.exitCode()).as(decided.err()).isZero();
        awaitLine(worker, ": failed on run " + notes.runId() + ": failed");

        JsonNode shown = countersign.run("show", notes.runId()).json();
        assertThat(shown.path("failure").asText()).startsWith("owner_not_permitted: maria (no role) may not start"
                + " run");
        assertThat(shown.path("history").path("calls").findValuesAsText("tool")).doesNotContain("fs_write");
        assertThat(Files.readString(notesFile)).isEqualTo(notesBefore);

        worker.process().destroy();
        CommandProcess.Result stopped = worker.await();

        assertThat(stopped.exitCode()).as(stopped.err()).isZero();
        assertThat(stopped.err()).contains("stopping once the runs in progress end their stretch");
        JsonNode report = stopped.json();
        assertThat(report.path("workerId").asText()).startsWith("worker-");
        assertThat(report.path("firstStretches").asInt()).isEqualTo(1);
        assertThat(report.path("failed").asInt()).isEqualTo(1);
        assertThat(runsHeldOrRunning(file)).isZero();
    }

    /** Runs still running, leased to a worker or carrying a journal intent: none once a worker stopped cleanly. */
    private static int runsHeldOrRunning(Path file) throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
             ResultSet count = connection.createStatement().executeQuery("SELECT COUNT(*) FROM runs r WHERE"
                     + " r.status = 'running' OR r.worker_id IS NOT NULL OR r.lease_expires IS NOT NULL"
                     + " OR EXISTS (SELECT 1 FROM call_intents i WHERE i.run_id = r.id)")) {
            return count.getInt(1);
        }
    }

    private static void awaitLine(CommandProcess.Running process, String contains) throws IOException,
            InterruptedException {
        Instant deadline = Instant.now().plus(PATIENCE);
        while (Instant.now().isBefore(deadline)) {
            if (Files.readString(process.err()).contains(contains)) {
                return;
            }
            if (!process.process().isAlive()) {
                break;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the worker did not write \"" + contains + "\": " + Files.readString(process.err()));
    }
}
