package io.countersign.cli;

import static org.assertj.core.api.Assertions.assertThat;
import com.fasterxml.jackson.databind.JsonNode;
import io.countersign.engine.Role;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.store.StoreLocation;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real command in child processes against a fresh SQLite file: the operator's flow from the demo to the
 * denial events, and each refusal with its exit code and its one line on standard error.
 */
class CommandLineTest {
    @TempDir
    Path folder;
    CommandProcess countersign;

    @BeforeEach
    void freshStore() {
        countersign = new CommandProcess(folder, folder.resolve("countersign.db").toString());
    }

    /** The demo, made in this process to save a child's start-up, as {@code countersign demo} makes it. */
    private void demoInProcess() {
        try (CountersignRuntime runtime = CountersignRuntime.open(new StoreLocation.SqliteFile(
                folder.resolve("countersign.db")))) {
            runtime.localUser();
            runtime.ensureDemo(folder);
            runtime.store().users().add("sam", Set.of(Role.SUPERVISOR), runtime.localUser());
        }
    }

    private JsonNode waiting(String agent) {
        CommandProcess.Result inbox = countersign.run("inbox");
        assertThat(inbox.exitCode()).as(inbox.err()).isZero();
        for (JsonNode run : inbox.json()) {
            if (run.path("agent").asText().equals(agent)) {
                return run;
            }
        }
        throw new AssertionError("no waiting run of " + agent + " in " + inbox.out());
    }

    private static void assertOneLineError(CommandProcess.Result result, int exitCode, String contains) {
        assertThat(result.exitCode()).as(result.err()).isEqualTo(exitCode);
        assertThat(result.err().lines().toList()).as("stderr").singleElement().asString().contains(contains);
        assertThat(result.out()).isEmpty();
    }

    @Test
    void demoThenInboxThenDecideThenShowThenTheDenialEvents() {
        CommandProcess.Result demo = countersign.run("demo");
        assertThat(demo.exitCode()).as(demo.err()).isZero();
        assertThat(demo.json().path("created").asBoolean()).isTrue();
        assertThat(demo.err()).isEmpty();

        JsonNode card = waiting("release-notes-bot");
        assertThat(card.path("pending").get(0).path("tool").asText()).isEqualTo("fs_write");
        assertThat(card.path("pending").get(0).path("target").path("identifier").asText()).isEqualTo("NOTES.md");
        assertThat(card.path("refused").get(0).path("rule").asText()).isEqualTo("workspace.boundary");
        String runId = card.path("runId").asText();

        CommandProcess.Result decided = countersign.run("decide", runId, "--digest", card.path("digest").asText(),
                "--approve-all");
        assertThat(decided.exitCode()).as(decided.err()).isZero();
        assertThat(decided.json().path("status").asText()).isEqualTo("completed");
        assertThat(decided.json().path("approved").asInt()).isEqualTo(1);
        assertThat(folder.resolve("countersign.db-wal")).as("a command leaves the synced log to the next process")
                .isNotEmptyFile();

        JsonNode shown = countersign.run("show", runId).json();
        assertThat(shown.path("status").asText()).isEqualTo("completed");
        assertThat(shown.path("card").isNull()).isTrue();
        assertThat(shown.path("history").path("calls").findValuesAsText("tool")).contains("fs_write", "fs_delete");
        assertThat(shown.path("events").findValuesAsText("title")).contains("approval_decided");

        JsonNode denials = countersign.run("events", "--type", "invocation_denied").json().path("events");
        assertThat(denials).singleElement().satisfies(event -> {
            assertThat(event.path("run").asText()).isEqualTo(runId);
            assertThat(event.path("tool").asText()).isEqualTo("fs_delete");
            assertThat(event.path("reason").asText()).isEqualTo("outside_workspace");
        });
    }

    @Test
    void staleDigestIsRefusedAndNothingRuns() throws Exception {
        demoInProcess();
        JsonNode card = waiting("release-notes-bot");

        assertOneLineError(countersign.run("decide", card.path("runId").asText(), "--digest", "0".repeat(64),
                "--approve-all"), 3, "changed since it was read; its digest is now " + card.path("digest").asText());
        assertThat(Files.readString(folder.resolve("demo-workspace/release-notes/NOTES.md"))).doesNotContain("2.4");
        assertThat(waiting("release-notes-bot").path("digest")).isEqualTo(card.path("digest"));
    }

    @Test
    void inputOutsideTheSchemaIsBadUsageInOneLineAndTheRunStillWaits() {
        demoInProcess();
        JsonNode card = waiting("intake-form");
        String runId = card.path("runId").asText();

        assertOneLineError(countersign.run("input", runId, "--digest", card.path("digest").asText(), "--data",
                "{\"summary\": \"Stalls\", \"priority\": 9, \"category\": \"bug\"}"), 2,
                "the input does not fit the form of run " + runId + ": argument \"priority\": must be at most 4");
        assertThat(waiting("intake-form").path("digest")).isEqualTo(card.path("digest"));
        assertThat(countersign.run("show", runId).json().path("history").path("calls").findValuesAsText("tool"))
                .doesNotContain("intake_form");

        CommandProcess.Result valid = countersign.run("input", runId, "--digest", card.path("digest").asText(),
                "--data", "{\"summary\": \"Stalls\", \"priority\": 4, \"category\": \"bug\"}");
        assertThat(valid.exitCode()).as(valid.err()).isZero();
        assertThat(valid.json().path("status").asText()).isEqualTo("completed");
        assertThat(valid.json().path("failed")).isEmpty();
    }

    @Test
    void secondDeciderIsRefusedAndToldWhoDecided() {
        demoInProcess();
        JsonNode card = waiting("release-notes-bot");
        String runId = card.path("runId").asText();
        String digest = card.path("digest").asText();
        assertThat(countersign.runAs("jonas", "decide", runId, "--digest", digest, "--deny-all", "--reason",
                "not now").exitCode()).isZero();

        assertOneLineError(countersign.run("decide", runId, "--digest", digest, "--approve-all"), 3,
                "run " + runId + " was already decided by jonas at ");
    }

    @Test
    void operatorMayNotChangeToolSettings() {
        demoInProcess();

        assertOneLineError(countersign.runAs("maria", "tool", "set", "web_fetch", "--enabled", "false"), 3,
                "maria (operator) may not change tool settings; that needs the role admin");
        assertThat(countersign.run("tools").json().findParents("name").stream()
                .filter(tool -> tool.path("name").asText().equals("web_fetch")).findFirst().orElseThrow()
                .path("enabled").asBoolean()).isTrue();
    }

    @Test
    void supervisorMayNotDecide() {
        demoInProcess();
        JsonNode card = waiting("release-notes-bot");

        assertOneLineError(countersign.runAs("sam", "decide", card.path("runId").asText(), "--digest",
                card.path("digest").asText(), "--approve-all"), 3, "sam (supervisor) may not decide");
    }

    @Test
    void impersonationWithoutTheEnvironmentVariableIsBadUsage() {
        CommandProcess.Result result = countersign.start(Map.of(), "--as", "maria", "inbox").await();

        assertOneLineError(result, 2, "COUNTERSIGN_ALLOW_IMPERSONATION=1");
    }

    @Test
    void missingArgumentsAreBadUsageInOneLine() {
        assertOneLineError(countersign.run("decide", "some-run"), 2, "Missing required argument");
    }

    @Test
    void unreachablePostgresStoreIsUnavailable() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        CommandProcess nowhere = new CommandProcess(folder, "jdbc:postgresql://127.0.0.1:" + closedPort
                + "/countersign?user=ana&password=env:ANA_PASSWORD");

        CommandProcess.Result result = nowhere.start(Map.of("ANA_PASSWORD", "secret"), "inbox").await();

        assertOneLineError(result, 4, "cannot be reached");
        assertThat(result.err()).doesNotContain("secret");
    }
}
