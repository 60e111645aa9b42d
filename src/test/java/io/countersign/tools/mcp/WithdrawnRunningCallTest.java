package io.countersign.tools.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.call.ToolExecutionContext;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.tool.CallerChannel;
import io.countersign.engine.tool.InputPrompts;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.engine.tool.ServerHints;
import io.countersign.engine.tool.ToolCallRequest;
import io.countersign.engine.tool.ToolResult;
import io.countersign.engine.tool.WithdrawableCaller;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A call its caller gives up while it runs at a real stdio server ({@code mcp/cancellable-server.js}, whose tool
 * waits until cancelled and writes down each cancellation it receives): the server is asked to stop exactly that
 * request, and the call's outcome is what the server then reports, or unknown when it says nothing.
 */
class WithdrawnRunningCallTest {
    private static final Pattern CALLED = Pattern.compile("called (\\S+)");

    @TempDir
    Path folder;
    private Path ledger;
    private McpConnection connection;
    private McpRemoteTool hold;

    @BeforeEach
    void aServerWhoseToolWaitsUntilCancelled() throws Exception {
        ledger = folder.resolve("ledger.txt");
        Files.createFile(ledger);
        String server = Path.of(getClass().getResource("/mcp/cancellable-server.js").toURI()).toString();
        McpServerRecord record = McpServerRecord.stdio("cancellable", McpPeers.node(),
                List.of(server, ledger.toString(), folder.toString()));
        connection = new McpConnection(record, SecretResolver.environment(), new McpConnection.Listener() {
            @Override
            public void toolsChanged() {
            }

            @Override
            public void reconnected() {
            }
        }, Clock.systemUTC(), null);
        hold = new McpRemoteTool("cancellable.hold", "hold", "Waits until the call is cancelled.",
                JsonNodeFactory.instance.objectNode().put("type", "object"), ServerHints.NONE, record,
                connection::call);
    }

    @AfterEach
    void closeTheConnection() {
        connection.close();
    }

    @Test
    void aServerThatStopsSilentlyIsAskedToStopThatRequestAndTheOutcomeIsUnknown() throws Exception {
        WithdrawableCaller caller = new WithdrawableCaller();
        CompletableFuture<ToolResult> result = CompletableFuture.supplyAsync(() -> hold.execute(request(caller)));
        String id = calledId();

        caller.withdraw();
        ToolResult outcome = result.get(30, TimeUnit.SECONDS);

        assertThat(outcome.outcomeUnknown()).isTrue();
        assertThat(outcome.content()).contains("server \"cancellable\" was asked to stop the call of \"hold\" when its"
                + " caller gave it up, and did not say whether it had acted");
        assertThat(Files.readAllLines(ledger)).containsExactly("called " + id,
                "cancelled " + id + ": the caller gave up the call");
    }

    @Test
    void anAnswerAfterTheCancellationIsTheOutcomeAsTheServerReportsIt() throws Exception {
        Files.createFile(folder.resolve("answer-after-cancel"));
        WithdrawableCaller caller = new WithdrawableCaller();
        CompletableFuture<ToolResult> result = CompletableFuture.supplyAsync(() -> hold.execute(request(caller)));
        String id = calledId();

        caller.withdraw();
        ToolResult outcome = result.get(30, TimeUnit.SECONDS);

        assertThat(outcome.outcomeUnknown()).isFalse();
        assertThat(outcome.failed()).isFalse();
        assertThat(outcome.content()).contains("finished before it stopped");
        assertThat(Files.readAllLines(ledger)).containsExactly("called " + id,
                "cancelled " + id + ": the caller gave up the call");
    }

    @Test
    void aCallNobodyGaveUpIsNeverCancelledAtItsServer() throws Exception {
        Files.createFile(folder.resolve("answer-after-cancel"));
        WithdrawableCaller caller = new WithdrawableCaller();
        CompletableFuture<ToolResult> first = CompletableFuture.supplyAsync(() -> hold.execute(request(caller)));
        String id = calledId();
        WithdrawableCaller other = new WithdrawableCaller();
        CompletableFuture.runAsync(() -> hold.execute(request(other)));
        awaitLines(2);

        caller.withdraw();
        first.get(30, TimeUnit.SECONDS);

        assertThat(Files.readAllLines(ledger)).filteredOn(line -> line.startsWith("cancelled"))
                .containsExactly("cancelled " + id + ": the caller gave up the call");
    }

    private ToolCallRequest request(CallerChannel caller) {
        AgentConfiguration agent = AgentConfiguration.of("host", ModelConfiguration.scripted("scripted"),
                List.of("cancellable"));
        ObjectNode arguments = JsonNodeFactory.instance.objectNode();
        return new ToolCallRequest("cancellable.hold", arguments, agent,
                ToolExecutionContext.of(Actor.of("ada", Role.OPERATOR), "run-1", Locale.ENGLISH),
                InputPrompts.DECLINE, caller);
    }

    /** The request id of the first call the server received, once it did. */
    private String calledId() throws Exception {
        awaitLines(1);
        Matcher called = CALLED.matcher(Files.readAllLines(ledger).get(0));
        assertThat(called.matches()).isTrue();
        return called.group(1);
    }

    private void awaitLines(int count) {
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.readAllLines(ledger).size() >= count);
    }
}
