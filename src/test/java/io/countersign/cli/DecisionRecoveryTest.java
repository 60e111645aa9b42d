package io.countersign.cli;

import static org.assertj.core.api.Assertions.assertThat;
import com.fasterxml.jackson.databind.JsonNode;
import io.countersign.engine.Actor;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.chat.TrustZone;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.store.StoreLocation;
import io.countersign.store.StoredAgentConfiguration;
import io.countersign.tools.mcp.McpPeers;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Committed decisions through the real command line in child processes, with a tiny MCP server whose one tool
 * appends a line to a ledger per execution: a decision committed for a worker ({@code decide --queue}) is kept
 * while read-only commands carry nothing out, a worker whose server cannot start leaves the
 * decision waiting with its reason, and a process that has the server carries it out exactly once. A server that
 * dies in the middle of the call leaves the run flagged "outcome unknown" for {@code settle}, never retried.
 */
class DecisionRecoveryTest {
    @TempDir
    Path folder;
    Path store;
    Path ledger;
    Path control;
    CommandProcess countersign;

    @BeforeEach
    void storeWithARemoteAgent() throws Exception {
        store = folder.resolve("countersign.db");
        ledger = folder.resolve("ledger.txt");
        control = Files.createDirectories(folder.resolve("control"));
        countersign = new CommandProcess(folder, store.toString());
        Path script = Files.writeString(folder.resolve("counter.json"), "{\"turns\": ["
                + "{\"content\": \"Appending.\", \"toolCalls\": [{\"name\": \"ctr.append\", \"arguments\":"
                + " {\"line\": \"once\"}}]}, {\"content\": \"Appended.\"}]}");
        try (CountersignRuntime runtime = CountersignRuntime.open(new StoreLocation.SqliteFile(store))) {
            Actor admin = runtime.localUser();
            runtime.store().servers().add(McpServerRecord.stdio("ctr", McpPeers.node(), List.of(ledgerServer(),
                    ledger.toString(), control.toString())).withApprovalBound(true)
                    .withConnectTimeout(Duration.ofSeconds(5)), admin);
            ModelConfiguration model = new ModelConfiguration("counter-script", "scripted", "counter",
                    script.toString(), TrustZone.LOCAL, null, null, null, null);
            runtime.store().configurations().saveModel(model);
            runtime.store().configurations().saveAgent(StoredAgentConfiguration.of(
                    AgentConfiguration.of("counter", model, List.of("ctr")), "[]"));
        }
    }

    @Test
    void aQueuedDecisionIsCarriedOutOnceByAProcessThatHasTheServer() throws Exception {
        JsonNode card = pausedRun();
        String runId = card.path("runId").asText();
        CommandProcess.Result queued = countersign.run("decide", runId, "--digest", card.path("digest").asText(),
                "--approve-all", "--queue");
        assertThat(queued.exitCode()).as(queued.err()).isZero();

        for (String[] reading : List.of(new String[] {"inbox"}, new String[] {"show", runId},
                new String[] {"events"})) {
            CommandProcess.Result read = countersign.run(reading);
            assertThat(read.exitCode()).as(read.err()).isZero();
        }
        assertThat(row(runId).claimed()).as("the decision is kept").isTrue();
        assertThat(row(runId).status()).isEqualTo("queued");
        assertThat(intents(runId)).isZero();
        int executed = ledgerLines().size();

        Files.createFile(control.resolve("broken"));
        CommandProcess.Result withoutServer = countersign.run("worker", "--drain");
        assertThat(withoutServer.exitCode()).as(withoutServer.err()).isZero();
        assertThat(withoutServer.err()).contains("waiting up to 10 s for MCP server ctr to connect");
        assertThat(row(runId)).isEqualTo(new RunRow("running", true, null));
        assertThat(ledgerLines()).hasSize(executed);
        JsonNode shown = countersign.run("show", runId).json();
        assertThat(shown.path("decided").path("waitingFor").asText())
                .isEqualTo("approved, waiting for server ctr to connect");
        assertThat(countersign.run("inbox").json().findValuesAsText("waitingFor"))
                .contains("approved, waiting for server ctr to connect");

        Files.delete(control.resolve("broken"));
        CommandProcess.Result withServer = countersign.run("worker", "--drain");
        assertThat(withServer.exitCode()).as(withServer.err()).isZero();
        assertThat(ledgerLines()).as("executions").hasSize(executed + 1);
        assertThat(countersign.run("show", runId).json().path("status").asText()).isEqualTo("completed");
    }

    private List<String> ledgerLines() throws Exception {
        return Files.exists(ledger) ? Files.readAllLines(ledger) : List.of();
    }

    @Test
    void aDecideWhoseServerCannotStartDecidesNothingAndSaysWhy() throws Exception {
        JsonNode card = pausedRun();
        String runId = card.path("runId").asText();
        JsonNode call = card.path("pending").get(0);
        // what the card says comes from the paused state and the server record, not from a connection
        assertThat(call.path("tool").asText()).isEqualTo("ctr.append");
        assertThat(call.path("remote").asBoolean()).isTrue();
        assertThat(call.path("effect").asText()).as("a remote tool is never called a read").isEqualTo("unknown");
        assertThat(call.path("effectText").asText()).isEqualTo("remote, declared approval-bound on its server by "
                + call.path("declaration").path("declaredBy").asText());
        Files.createFile(control.resolve("broken"));

        CommandProcess.Result refused = countersign.run("decide", runId, "--digest", card.path("digest").asText(),
                "--approve-all");

        assertThat(refused.exitCode()).as(refused.err()).isEqualTo(Cli.UNAVAILABLE);
        assertThat(refused.err()).contains("run " + runId + ": MCP server ctr did not connect, so nothing was"
                + " decided and the card still waits");
        assertThat(row(runId)).isEqualTo(new RunRow("waiting_for_approval", false, null));

        Files.delete(control.resolve("broken"));
        CommandProcess.Result decided = countersign.run("decide", runId, "--digest", card.path("digest").asText(),
                "--approve-all");
        assertThat(decided.exitCode()).as(decided.err()).isZero();
        assertThat(decided.json().path("status").asText()).isEqualTo("completed");
        assertThat(ledgerLines()).containsExactly("once");
    }

    @Test
    void aServerThatDiesDuringTheCallLeavesTheRunFlaggedForSettle() throws Exception {
        Files.createFile(control.resolve("die"));
        String retried = decidedWhileTheServerDies();
        String failed = decidedWhileTheServerDies();
        assertThat(ledgerLines()).as("one execution per decided call").containsExactly("once", "once");

        JsonNode shown = countersign.run("show", retried).json();
        assertThat(shown.path("status").asText()).isEqualTo("outcome_unknown");
        assertThat(shown.path("unknownOutcomeCalls")).hasSize(1);
        assertThat(shown.path("failure").asText()).startsWith("outcome_unknown: server \"ctr\" went away during"
                + " the call of append (exited with status 1): whether it took effect is unknown; settle it: countersign"
                + " settle " + retried);
        JsonNode inbox = countersign.run("inbox").json();
        assertThat(inbox).as("listed to settle, with nothing to decide").filteredOn(listed -> listed.path("runId")
                .asText().equals(retried)).singleElement().satisfies(listed -> {
                    assertThat(listed.path("status").asText()).isEqualTo("outcome_unknown");
                    assertThat(listed.path("waitingFor").asText()).isEqualTo("outcome unknown: settle " + retried
                            + " --retry (decide again) or --fail");
                    assertThat(listed.has("digest")).isFalse();
                });

        CommandProcess.Result retry = countersign.run("settle", retried, "--retry");
        assertThat(retry.exitCode()).as(retry.err()).isZero();
        assertThat(retry.json().path("status").asText()).isEqualTo("waiting_for_approval");
        JsonNode again = countersign.run("show", retried).json();
        assertThat(again.path("failure").isNull()).as(again.toString()).isTrue();
        assertThat(again.path("card").path("digest").asText()).hasSize(64);

        CommandProcess.Result fail = countersign.run("settle", failed, "--fail");
        assertThat(fail.exitCode()).as(fail.err()).isZero();
        assertThat(fail.json().path("status").asText()).isEqualTo("failed");
        assertThat(intents(failed)).isZero();
        assertThat(ledgerLines()).as("settling executes nothing").hasSize(2);
    }

    /** A paused run decided with its server set to die in the middle of the call; the run's id. */
    private String decidedWhileTheServerDies() {
        JsonNode card = pausedRun();
        String runId = card.path("runId").asText();
        CommandProcess.Result decided = countersign.run("decide", runId, "--digest", card.path("digest").asText(),
                "--approve-all");
        assertThat(decided.exitCode()).as(decided.err()).isZero();
        assertThat(decided.json().path("status").asText()).isEqualTo("outcome_unknown");
        return runId;
    }

    @Test
    void readOnlyCommandsLeaveTheStoreFileAsItWas() throws Exception {
        String runId = pausedRun().path("runId").asText();
        String before = checksum();

        for (String[] reading : List.of(new String[] {"inbox"}, new String[] {"inbox", "--format", "table"},
                new String[] {"show", runId}, new String[] {"events"})) {
            CommandProcess.Result read = countersign.run(reading);
            assertThat(read.exitCode()).as(read.err()).isZero();
        }

        assertThat(checksum()).as("the store file and its write-ahead log").isEqualTo(before);
        assertThat(ledger).doesNotExist();
    }

    /** Starts a run of the counter agent, which pauses on its remote call, and returns its card. */
    private JsonNode pausedRun() {
        CommandProcess.Result started = countersign.run("run", "--agent", "counter", "--prompt", "Count once.");
        assertThat(started.exitCode()).as(started.err()).isZero();
        assertThat(started.json().path("status").asText()).isEqualTo("waiting_for_approval");
        CommandProcess.Result shown = countersign.run("show", started.json().path("runId").asText());
        assertThat(shown.exitCode()).as(shown.err()).isZero();
        return shown.json().path("card");
    }

    /** The store file and its write-ahead log, as bytes. */
    private String checksum() throws Exception {
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        digest.update(Files.readAllBytes(store));
        Path wal = store.resolveSibling(store.getFileName() + "-wal");
        if (Files.exists(wal)) {
            digest.update(Files.readAllBytes(wal));
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    private record RunRow(String status, boolean claimed, String owner) {
    }

    /** The run's row, read past the store. */
    private RunRow row(String runId) throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + store);
             PreparedStatement select = connection.prepareStatement("SELECT status, claimed_decision IS NOT NULL,"
                     + " owner FROM runs WHERE id = ?")) {
            select.setString(1, runId);
            try (ResultSet row = select.executeQuery()) {
                assertThat(row.next()).as("run %s exists", runId).isTrue();
                return new RunRow(row.getString(1), row.getBoolean(2), row.getString(3));
            }
        }
    }

    private int intents(String runId) throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + store);
             PreparedStatement select = connection.prepareStatement("SELECT COUNT(*) FROM call_intents"
                     + " WHERE run_id = ?")) {
            select.setString(1, runId);
            try (ResultSet count = select.executeQuery()) {
                count.next();
                return count.getInt(1);
            }
        }
    }

    private static String ledgerServer() throws URISyntaxException {
        return Path.of(DecisionRecoveryTest.class.getResource("/mcp/ledger-server.js").toURI()).toString();
    }
}
