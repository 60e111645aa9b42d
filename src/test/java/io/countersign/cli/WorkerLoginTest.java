package io.countersign.cli;

import static org.assertj.core.api.Assertions.assertThat;
import com.fasterxml.jackson.databind.JsonNode;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.engine.port.WaitingRun;
import io.countersign.store.StoreLocation;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker process's own login, made a worker with {@code user set}, in real processes on a SQLite file: its
 * {@code countersign worker} carries out the decision an operator left to workers, and its own decision is
 * refused in one sentence with exit code 3.
 */
class WorkerLoginTest {
    @TempDir
    Path folder;

    @Test
    void aWorkerCarriesOutAnOperatorsQueuedDecisionButMayNotDecide() throws Exception {
        Path file = folder.resolve("countersign.db");
        CommandProcess countersign = new CommandProcess(folder, file.toString());
        WaitingRun notes;
        try (CountersignRuntime runtime = CountersignRuntime.open(new StoreLocation.SqliteFile(file))) {
            runtime.localUser();
            runtime.ensureDemo(folder);
            notes = runtime.runs().inbox(runtime.user("maria")).stream()
                    .filter(run -> run.agent().equals("release-notes-bot")).findFirst().orElseThrow();
        }
        Path notesFile = folder.resolve("demo-workspace/release-notes/NOTES.md");
        String notesBefore = Files.readString(notesFile);

        CommandProcess.Result added = countersign.run("user", "set", "wendy", "--roles", "worker");
        assertThat(added.exitCode()).as(added.err()).isZero();
        assertThat(added.json().path("roles").toString()).isEqualTo("[\"worker\"]");
        assertThat(added.json().path("result").asText()).isEqualTo("added");
        CommandProcess.Result misspelt = countersign.run("user", "set", "wendy", "--roles", "wroker");
        assertThat(misspelt.exitCode()).isEqualTo(2);
        assertThat(misspelt.err()).contains("\"wroker\" is not a role; give operator, supervisor, admin or worker");

        CommandProcess.Result refused = countersign.runAs("wendy", "decide", notes.runId(), "--digest",
                notes.digest(), "--approve-all");
        assertThat(refused.exitCode()).as(refused.out() + refused.err()).isEqualTo(3);
        assertThat(refused.err()).contains("wendy (worker) may not decide; that needs the role admin or operator");
        assertThat(Files.readString(notesFile)).isEqualTo(notesBefore);

        CommandProcess.Result queued = countersign.runAs("maria", "decide", notes.runId(), "--digest",
                notes.digest(), "--approve-all", "--queue");
        assertThat(queued.exitCode()).as(queued.err()).isZero();
        CommandProcess.Result worked = countersign.runAs("wendy", "worker", "--drain");

        assertThat(worked.exitCode()).as(worked.err()).isZero();
        assertThat(worked.err()).contains(" as wendy");
        JsonNode report = worked.json();
        assertThat(report.path("decisionsCarriedOut").asInt()).isEqualTo(1);
        assertThat(report.path("failed").asInt()).isZero();
        assertThat(Files.readString(notesFile)).isNotEqualTo(notesBefore);
        JsonNode shown = countersign.run("show", notes.runId()).json();
        // what the worker carried out is recorded in the name of the operator who decided it
        assertThat(shown.path("status").asText()).isEqualTo("completed");
        assertThat(shown.path("events").findValuesAsText("body")).contains("by maria · approved 1, denied 0")
                .noneMatch(body -> body.contains("wendy"));
    }
}
