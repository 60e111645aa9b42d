package io.countersign.tools.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.countersign.cli.Cli;
import io.countersign.engine.Json;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.event.EventFilter;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.event.PageRequest;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.RunSummary;
import io.countersign.engine.port.WaitingRun;
import io.countersign.engine.state.RunStatus;
import io.countersign.service.RunTimeline;
import io.countersign.tools.mcp.McpPeers;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The gateway behind real hosts, two JavaScript agent frameworks' MCP clients configured as their users configure
 * them, with {@code countersign gateway} as the stdio server command: the OpenAI Agents SDK's
 * {@code MCPServerStdio} and LangChain's {@code MultiServerMCPClient}. Each gives up on a tool call after its
 * timeout and tells the gateway with {@code notifications/cancelled}; a person rarely decides that fast.
 */
class GatewayJsHostsTest {
    /** The frameworks' timeout here; their default is 60 s, which only makes the test slower, not different. */
    private static final int TIMEOUT_MS = 4_000;

    @TempDir
    Path folder;
    private GatewayTestBed bed;
    private Process host;
    private BufferedReader answers;

    @BeforeEach
    void setUp() throws Exception {
        bed = new GatewayTestBed(folder);
    }

    /**
     * Starts the framework's host in front of a gateway on the test bed's store: over stdio, the host starting the
     * gateway, or over Streamable HTTP, to a gateway listening with its bearer token.
     */
    private void start(String hostAndTransport) throws Exception {
        String[] parts = hostAndTransport.split(" ");
        List<String> command = new ArrayList<>(List.of(McpPeers.node(), McpPeers.hostScript("js-host.mjs"),
                parts[0], Integer.toString(TIMEOUT_MS)));
        String token = "";
        if (parts[1].equals("http")) {
            HttpGatewayProcess listener = bed.listen();
            command.add(listener.url().toString());
            token = listener.authorization().substring("Bearer ".length());
        } else {
            command.add(GatewayHost.javaCommand());
            command.addAll(bed.gatewayArguments());
        }
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.appendTo(folder.resolve("host.log").toFile()));
        builder.environment().put("HOST_TOOLS", "echo,disk.write_file");
        builder.environment().put("HOST_TOKEN", token);
        host = builder.start();
        answers = new BufferedReader(new InputStreamReader(host.getInputStream(), StandardCharsets.UTF_8));
        assertThat(nextAnswer().path("tools").toString()).contains("disk.write_file", "echo");
    }

    @AfterEach
    void tearDown() throws Exception {
        if (host != null) {
            host.getOutputStream().close();
            if (!host.waitFor(30, TimeUnit.SECONDS)) {
                host.destroyForcibly();
            }
        }
        bed.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"agents stdio", "langchain stdio", "agents http", "langchain http"})
    void aCallTheHostGaveUpOnLeavesTheInboxAndNeverRunsWhenApprovedLater(String hostAndTransport) throws Exception {
        start(hostAndTransport);
        Path late = bed.workspace().resolve("late.txt");
        call("disk.write_file", "{\"path\": " + Json.mapper().writeValueAsString(late.toString())
                + ", \"content\": \"written after the host gave up\"}");
        WaitingRun card = bed.awaitCard();

        JsonNode gaveUp = nextAnswer();

        assertThat(gaveUp.path("failed").asText().toLowerCase(Locale.ROOT)).containsAnyOf("timed out",
                "timeout");
        await().atMost(20, TimeUnit.SECONDS).until(() -> bed.console().runs().inbox(GatewayTestBed.RITA).isEmpty());
        DecisionResult approvedLate = bed.console().runs().decide(GatewayTestBed.RITA, card.runId(), card.digest(),
                List.of(Decision.CallVerdict.approve(0)));
        assertThat(approvedLate).isInstanceOfSatisfying(DecisionResult.AlreadyDecided.class,
                refused -> assertThat(refused.cancelledByHost()).isTrue());
        GatewayTestBed.CliOutcome script = bed.cli("decide", card.runId(), "--digest", card.digest(),
                "--approve-all");
        assertThat(script.exitCode()).as(script.err()).isEqualTo(Cli.REFUSED);
        assertThat(script.err().lines().toList()).singleElement().asString()
                .contains("run " + card.runId() + ": the host cancelled this call at ")
                .endsWith("; nothing was executed");
        assertThat(withdrawals(card.runId())).singleElement().satisfies(event -> {
            assertThat(event.reasonCode()).isEqualTo("host_cancelled");
            assertThat(event.toolName()).isEqualTo("disk.write_file");
        });
        assertThat(late).doesNotExist();

        // the host's connection, and its run, go on
        call("echo", "{\"message\": \"still here\"}");
        assertThat(nextAnswer().path("text").asText()).isEqualTo("Echo: still here");
        assertThat(late).doesNotExist();
    }

    @ParameterizedTest
    @ValueSource(strings = {"agents stdio", "langchain http"})
    void aCallApprovedBeforeTheHostGivesUpRunsOnce(String hostAndTransport) throws Exception {
        start(hostAndTransport);
        Path plan = bed.workspace().resolve("plan.txt");
        call("disk.write_file", "{\"path\": " + Json.mapper().writeValueAsString(plan.toString())
                + ", \"content\": \"step one\"}");
        WaitingRun card = bed.awaitCard();

        DecisionResult approved = bed.console().runs().decide(GatewayTestBed.RITA, card.runId(), card.digest(),
                List.of(Decision.CallVerdict.approve(0)));

        assertThat(approved).isInstanceOf(DecisionResult.Done.class);
        JsonNode answer = nextAnswer();
        assertThat(answer.path("isError").asBoolean()).as(answer.toString()).isFalse();
        assertThat(plan).hasContent("step one");
        assertThat(withdrawals(card.runId())).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"agents stdio"})
    void aCallTheHostGivesUpWhileItRunsIsStoppedAtItsServerAndItsOutcomeIsLeftToSettle(String hostAndTransport)
            throws Exception {
        start(hostAndTransport);
        call("trigger-long-running-operation", "{\"duration\": 30, \"steps\": 3}");

        JsonNode gaveUp = nextAnswer();

        assertThat(gaveUp.path("failed").asText().toLowerCase(Locale.ROOT)).containsAnyOf("timed out",
                "timeout");
        await().atMost(20, TimeUnit.SECONDS).until(() -> bed.console().runs()
                .recent(bed.console().localUser(), 10).stream().anyMatch(RunSummary::outcomeUnknown));
        RunTimeline timeline = bed.console().runs().timeline(bed.console().localUser(), bed.console().runs()
                .recent(bed.console().localUser(), 10).stream().filter(RunSummary::outcomeUnknown).findFirst()
                .orElseThrow().runId());
        assertThat(timeline.status()).isEqualTo(RunStatus.OUTCOME_UNKNOWN);
        assertThat(timeline.failure()).contains("server \"everything\" was asked to stop the call of"
                + " \"trigger-long-running-operation\" when its caller gave it up, and did not say whether it had acted");
    }

    private List<GovernanceEvent> withdrawals(String runId) {
        return bed.console().store().events().page(EventFilter.all().withRunId(runId)
                .ofTypes(Set.of(EventType.CALL_WITHDRAWN)), PageRequest.first(10)).events();
    }

    private void call(String tool, String arguments) throws IOException {
        OutputStream input = host.getOutputStream();
        input.write(("{\"tool\": \"" + tool + "\", \"arguments\": " + arguments + "}\n")
                .getBytes(StandardCharsets.UTF_8));
        input.flush();
    }

    /** The host's next line, within a minute; fails with the host's log if it ended first. */
    private JsonNode nextAnswer() throws Exception {
        String line = CompletableFuture.supplyAsync(() -> {
            try {
                return answers.readLine();
            } catch (IOException e) {
                return null;
            }
        }).get(60, TimeUnit.SECONDS);
        if (line == null) {
            throw new AssertionError("the host ended: " + Files.readString(folder.resolve("host.log")));
        }
        return Json.mapper().readTree(line);
    }
}
