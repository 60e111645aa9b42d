package io.countersign.tools.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.mcp.client.DefaultMcpClient;
import dev.langchain4j.mcp.client.McpClient;
import dev.langchain4j.mcp.client.transport.McpTransport;
import dev.langchain4j.mcp.client.transport.http.StreamableHttpMcpTransport;
import dev.langchain4j.mcp.client.transport.stdio.StdioMcpTransport;
import dev.langchain4j.service.tool.ToolExecutionResult;
import io.countersign.cli.Cli;
import io.countersign.engine.Json;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.event.EventFilter;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.PageRequest;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.WaitingRun;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The gateway behind a Java host, LangChain4j's MCP client ({@code DefaultMcpClient}) as its users configure it,
 * over stdio (the host starts {@code countersign gateway}) and over Streamable HTTP (with the listener's bearer
 * token). It gives up on a tool call after its {@code toolExecutionTimeout} (60 s by default, 4 s here) and tells
 * the gateway with {@code notifications/cancelled}.
 */
class GatewayJavaHostTest {
    /** The host's timeout where it gives up; its default, 60 s, only makes the test slower, not different. */
    private static final Duration GIVES_UP_AFTER = Duration.ofSeconds(4);

    @TempDir
    Path folder;
    private GatewayTestBed bed;
    private McpClient host;

    @BeforeEach
    void setUp() throws Exception {
        bed = new GatewayTestBed(folder);
    }

    @AfterEach
    void tearDown() throws Exception {
        if (host != null) {
            host.close();
        }
        bed.close();
    }

    private void start(String transport, Duration timeout) throws Exception {
        McpTransport wire;
        if (transport.equals("http")) {
            HttpGatewayProcess listener = bed.listen();
            wire = StreamableHttpMcpTransport.builder().url(listener.url().toString())
                    .customHeaders(Map.of("Authorization", listener.authorization())).build();
        } else {
            List<String> command = new ArrayList<>(List.of(GatewayHost.javaCommand()));
            command.addAll(bed.gatewayArguments());
            wire = StdioMcpTransport.builder().command(command).build();
        }
        host = DefaultMcpClient.builder().transport(wire).clientName("langchain4j-host")
                .toolExecutionTimeout(timeout).build();
        await().atMost(60, TimeUnit.SECONDS).until(() -> host.listTools().stream().map(ToolSpecification::name)
                .toList().containsAll(List.of("echo", "disk.write_file")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"stdio", "http"})
    void aCallTheHostGaveUpOnLeavesTheInboxAndNeverRunsWhenApprovedLater(String transport) throws Exception {
        start(transport, GIVES_UP_AFTER);
        Path late = bed.workspace().resolve("late.txt");
        String arguments = "{\"path\": " + quoted(late.toString())
                + ", \"content\": \"written after the host gave up\"}";
        CompletableFuture<ToolExecutionResult> call = CompletableFuture.supplyAsync(() -> host.executeTool(
                ToolExecutionRequest.builder().name("disk.write_file").arguments(arguments).build()));
        WaitingRun card = bed.awaitCard();

        ToolExecutionResult gaveUp = call.get(60, TimeUnit.SECONDS);

        assertThat(gaveUp.resultText()).isEqualTo("There was a timeout executing the tool");
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
        assertThat(bed.console().store().events().page(EventFilter.all().withRunId(card.runId())
                .ofTypes(Set.of(EventType.CALL_WITHDRAWN)), PageRequest.first(10)).events())
                .singleElement().satisfies(event -> assertThat(event.reasonCode()).isEqualTo("host_cancelled"));
        assertThat(late).doesNotExist();

        // the host's connection, and its run, go on
        ToolExecutionResult echoed = host.executeTool(ToolExecutionRequest.builder().name("echo")
                .arguments("{\"message\": \"still here\"}").build());
        assertThat(echoed.resultText()).isEqualTo("Echo: still here");
        assertThat(late).doesNotExist();
    }

    @ParameterizedTest
    @ValueSource(strings = {"stdio"})
    void aCallApprovedBeforeTheHostGivesUpRunsOnce(String transport) throws Exception {
        start(transport, Duration.ofSeconds(60));
        Path plan = bed.workspace().resolve("plan.txt");
        String arguments = "{\"path\": " + quoted(plan.toString()) + ", \"content\": \"step one\"}";
        CompletableFuture<ToolExecutionResult> call = CompletableFuture.supplyAsync(() -> host.executeTool(
                ToolExecutionRequest.builder().name("disk.write_file").arguments(arguments).build()));
        WaitingRun card = bed.awaitCard();

        DecisionResult approved = bed.console().runs().decide(GatewayTestBed.RITA, card.runId(), card.digest(),
                List.of(Decision.CallVerdict.approve(0)));

        assertThat(approved).isInstanceOf(DecisionResult.Done.class);
        ToolExecutionResult answer = call.get(60, TimeUnit.SECONDS);
        assertThat(answer.isError()).as(answer.resultText()).isFalse();
        assertThat(answer.resultText()).contains("Successfully wrote to");
        assertThat(plan).hasContent("step one");
    }

    private static String quoted(String text) throws Exception {
        return Json.mapper().writeValueAsString(text);
    }
}
