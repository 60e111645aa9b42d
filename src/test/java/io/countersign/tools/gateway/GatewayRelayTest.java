package io.countersign.tools.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.WaitingRun;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.store.Store;
import io.countersign.store.StoreLocation;
import io.countersign.tools.mcp.McpPeers;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.TypeRef;
import io.countersign.tools.mcp.ForwardingClientTransport;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;

import static org.awaitility.Awaitility.await;

/**
 * What a fronted server sends during a host's call reaches that host: the official SDK's client as the host starts
 * {@code countersign gateway} over stdio in front of the conformance scenarios' tools
 * ({@code conformance/scenario-tools.mjs}), once as {@code scenarios} (no approval) and once as {@code gated}
 * (approval-bound, decided by Rita through a runtime on the same store).
 */
class GatewayRelayTest {
    private static final Actor RITA = Actor.of("rita", Role.OPERATOR);
    private static final String FREE = "scenarios.";
    private static final String GATED = "gated.";

    @TempDir
    static Path folder;
    private static CountersignRuntime console;
    private static McpSyncClient host;
    /** A host that declared neither sampling nor elicitation, and sent no progress token. */
    private static McpSyncClient plainHost;
    private static final List<McpSchema.CreateMessageRequest> sampled = new CopyOnWriteArrayList<>();
    private static final List<McpSchema.ElicitFormRequest> asked = new CopyOnWriteArrayList<>();
    private static final List<McpSchema.ProgressNotification> progress = new CopyOnWriteArrayList<>();
    private static final List<McpSchema.LoggingMessageNotification> logs = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void aHostInFrontOfTheScenarioTools() throws Exception {
        Path db = folder.resolve("countersign.db");
        try (Store store = Store.open(new StoreLocation.SqliteFile(db))) {
            Actor admin = store.users().signedIn(GatewayTestBed.ME);
            store.users().add(RITA.name(), Set.of(Role.OPERATOR), admin);
            for (String name : List.of("scenarios", "gated")) {
                store.servers().add(McpPeers.scenarioTools(folder, name), admin);
            }
            store.settings().setServerApprovalBound("scenarios", false, admin);
            store.settings().setServerApprovalBound("gated", true, admin);
        }
        console = CountersignRuntime.open(new StoreLocation.SqliteFile(db), CountersignRuntime.Work.DECIDE,
                Duration.ofSeconds(30));
        console.gateway().profiles().add(console.localUser(), "relay", List.of("scenarios", "gated"), List.of(),
                "local", false, null, null);
        host = host(db, true, spec -> spec
                .capabilities(McpSchema.ClientCapabilities.builder().sampling().elicitation().build())
                .sampling(request -> {
                    sampled.add(request);
                    return McpSchema.CreateMessageResult.builder().role(McpSchema.Role.ASSISTANT)
                            .content(new McpSchema.TextContent("teal")).model("host-model").build();
                })
                .elicitation(request -> {
                    asked.add(request);
                    return McpSchema.ElicitResult.builder(McpSchema.ElicitResult.Action.ACCEPT)
                            .content(Map.of("username", "ada", "email", "ada@example.com")).build();
                }));
        plainHost = host(db, false, spec -> { });
    }

    @AfterAll
    static void stop() {
        for (McpSyncClient client : new McpSyncClient[] {host, plainHost}) {
            if (client != null) {
                client.closeGracefully();
            }
        }
        if (console != null) {
            console.close();
        }
    }

    @BeforeEach
    void nothingHeardYet() {
        progress.clear();
        logs.clear();
        sampled.clear();
        asked.clear();
    }

    @Test
    void aHostWithAProgressTokenHearsTheServersProgressUnderItsOwnToken() {
        McpSchema.CallToolResult result = host.callTool(McpSchema.CallToolRequest.builder(FREE
                + "test_tool_with_progress").arguments(Map.of()).progressToken("p1").build());

        assertThat(result.isError()).isFalse();
        // the server saw a token of the gateway's, never the host's
        assertThat(GatewayHost.text(result)).startsWith("countersign-").isNotEqualTo("p1");
        assertThat(progress).extracting(McpSchema.ProgressNotification::progressToken).containsOnly("p1");
        assertThat(progress).extracting(McpSchema.ProgressNotification::progress).containsExactly(0.0, 50.0, 100.0);
        assertThat(progress).extracting(McpSchema.ProgressNotification::total).containsOnly(100.0);
        assertThat(progress.get(1).message()).isEqualTo("Completed step 50 of 100");
    }

    @Test
    void aHostWithoutAProgressTokenHearsNoProgressAndTheServerGetsNoToken() {
        McpSchema.CallToolResult result = host.callTool(new McpSchema.CallToolRequest(FREE
                + "test_tool_with_progress", Map.of()));

        assertThat(GatewayHost.text(result)).isEqualTo("0");
        assertThat(progress).isEmpty();
    }

    @Test
    void progressStaysIncreasingWhenTheServersFollowTheGatewaysOwnWhileACardWaited() throws Exception {
        CompletableFuture<McpSchema.CallToolResult> call = CompletableFuture.supplyAsync(() -> host.callTool(
                McpSchema.CallToolRequest.builder(GATED + "test_tool_with_progress").arguments(Map.of())
                        .progressToken("g1").build()));
        await().atMost(30, TimeUnit.SECONDS).until(() -> !console.runs().inbox(RITA).isEmpty());
        WaitingRun card = console.runs().inbox(RITA).get(0);
        await().atMost(10, TimeUnit.SECONDS).until(() -> progress.size() >= 2);

        assertThat(console.runs().decide(RITA, card.runId(), card.digest(),
                List.of(Decision.CallVerdict.approve(0)))).isInstanceOf(DecisionResult.Done.class);

        assertThat(call.get(60, TimeUnit.SECONDS).isError()).isFalse();
        List<Double> values = progress.stream().map(McpSchema.ProgressNotification::progress).toList();
        assertThat(values).isSorted().doesNotHaveDuplicates();
        McpSchema.ProgressNotification last = progress.get(progress.size() - 1);
        double waited = progress.stream().filter(note -> note.total() == null).count();
        assertThat(last.total()).isEqualTo(waited + 100);
        assertThat(last.progress()).isEqualTo(waited + 100);
        assertThat(last.message()).isEqualTo("Completed step 100 of 100");
    }

    @Test
    void aHostHearsTheServersLogMessagesAtTheLevelItSet() {
        host.setLoggingLevel(McpSchema.LoggingLevel.DEBUG);

        McpSchema.CallToolResult result = host.callTool(new McpSchema.CallToolRequest(FREE
                + "test_tool_with_logging", Map.of()));

        assertThat(GatewayHost.text(result)).isEqualTo("Tool with logging executed successfully");
        await().atMost(5, TimeUnit.SECONDS).until(() -> logs.size() == 3);
        assertThat(logs).extracting(McpSchema.LoggingMessageNotification::data).containsExactly(
                "Tool execution started", "Tool processing data", "Tool execution completed");
        assertThat(logs).extracting(McpSchema.LoggingMessageNotification::level)
                .containsOnly(McpSchema.LoggingLevel.INFO);
    }

    @Test
    void aHostThatAskedForWarningsOnlyHearsNoneOfTheServersInfoMessages() throws Exception {
        host.setLoggingLevel(McpSchema.LoggingLevel.WARNING);
        try {
            host.callTool(new McpSchema.CallToolRequest(FREE + "test_tool_with_logging", Map.of()));
            host.callTool(new McpSchema.CallToolRequest(FREE + "test_tool_with_progress", Map.of()));

            assertThat(logs).isEmpty();
        } finally {
            host.setLoggingLevel(McpSchema.LoggingLevel.DEBUG);
        }
    }

    @Test
    void aHostThatDeclaredSamplingAnswersTheServersRequestAndTheResultCarriesItsAnswer() {
        McpSchema.CallToolResult result = host.callTool(new McpSchema.CallToolRequest(FREE + "test_sampling",
                Map.of("prompt", "Name a colour")));

        assertThat(result.isError()).isFalse();
        assertThat(GatewayHost.text(result)).isEqualTo("LLM response: teal");
        assertThat(sampled).singleElement().satisfies(request -> {
            assertThat(request.maxTokens()).isEqualTo(100);
            assertThat(((McpSchema.TextContent) request.messages().get(0).content()).text())
                    .isEqualTo("Name a colour");
        });
    }

    @Test
    void aHostThatDeclaredElicitationAnswersTheServersQuestion() {
        McpSchema.CallToolResult result = host.callTool(new McpSchema.CallToolRequest(FREE + "test_elicitation",
                Map.of("message", "Who are you?")));

        assertThat(GatewayHost.text(result)).startsWith("User response: action=accept, content={")
                .contains("\"username\":\"ada\"", "\"email\":\"ada@example.com\"");
        assertThat(asked).singleElement().satisfies(request -> {
            assertThat(request.message()).isEqualTo("Who are you?");
            assertThat(request.requestedSchema().get("required")).isEqualTo(List.of("username", "email"));
        });
    }

    @Test
    void anApprovalBoundCallAsksTheHostOnlyOnceItIsApproved() throws Exception {
        CompletableFuture<McpSchema.CallToolResult> call = CompletableFuture.supplyAsync(() -> host.callTool(
                new McpSchema.CallToolRequest(GATED + "test_sampling", Map.of("prompt", "Approved?"))));
        await().atMost(30, TimeUnit.SECONDS).until(() -> !console.runs().inbox(RITA).isEmpty());
        WaitingRun card = console.runs().inbox(RITA).get(0);
        Thread.sleep(500);
        assertThat(sampled).isEmpty();

        console.runs().decide(RITA, card.runId(), card.digest(), List.of(Decision.CallVerdict.approve(0)));

        assertThat(GatewayHost.text(call.get(60, TimeUnit.SECONDS))).isEqualTo("LLM response: teal");
        assertThat(sampled).hasSize(1);
    }

    @Test
    void aHostWithoutSamplingGetsTheReasonNoOneCouldAnswer() {
        McpSchema.CallToolResult result = plainHost.callTool(new McpSchema.CallToolRequest(FREE + "test_sampling",
                Map.of("prompt", "Name a colour")));

        assertThat(result.isError()).isTrue();
        assertThat(GatewayHost.text(result)).contains("Sampling failed:", "no one can answer sampling/createMessage"
                + " for this call: Countersign passes a server's sampling request on only to an MCP host that made the"
                + " call through its gateway and declared the sampling capability");
    }

    @Test
    void aHostWithoutElicitationLeavesTheQuestionDeclinedAsTheGatewayRunCannotAskAPerson() {
        McpSchema.CallToolResult result = plainHost.callTool(new McpSchema.CallToolRequest(FREE
                + "test_elicitation", Map.of("message", "Who are you?")));

        assertThat(GatewayHost.text(result)).isEqualTo("User response: action=decline, content={}");
    }

    /**
     * A host started on the store's profile {@code relay}, with the handlers {@code spec} adds; when {@code heard},
     * the progress and log messages it reads go to {@link #progress} and {@link #logs}.
     */
    private static McpSyncClient host(Path db, boolean heard, Consumer<McpClient.SyncSpec> spec) throws Exception {
        StdioClientTransport stdio = new StdioClientTransport(ServerParameters.builder(GatewayHost.javaCommand())
                .args(GatewayHost.gatewayArguments(folder, db, "relay")).build(), McpJsonDefaults.getMapper());
        stdio.setStdErrorHandler(line -> System.err.println("gateway: " + line));
        McpClientTransport transport = heard ? new HeardInOrder(stdio) : stdio;
        McpClient.SyncSpec client = McpClient.sync(transport).clientInfo(GatewayHost.CLIENT)
                .requestTimeout(Duration.ofMinutes(2)).initializationTimeout(Duration.ofMinutes(1));
        spec.accept(client);
        McpSyncClient started = client.build();
        started.initialize();
        await().atMost(60, TimeUnit.SECONDS).ignoreExceptions().pollDelay(Duration.ofMillis(500))
                .until(() -> GatewayHost.toolNames(started).containsAll(List.of(FREE + "test_tool_with_progress",
                        GATED + "test_tool_with_progress")));
        return started;
    }

    /**
     * Notes the progress and log messages the host reads, in the order the gateway wrote them and before the
     * answers that follow them are handled. The sync client's own consumers cannot: it hands each notification to
     * them on a worker thread of its own, so they may hear them out of order, or after the call's result.
     */
    private static final class HeardInOrder extends ForwardingClientTransport {
        HeardInOrder(McpClientTransport transport) {
            super(transport);
        }

        @Override
        public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
            return transport.connect(messages -> handler.apply(messages.doOnNext(this::heard)));
        }

        private void heard(McpSchema.JSONRPCMessage message) {
            if (!(message instanceof McpSchema.JSONRPCNotification notification)) {
                return;
            }
            switch (notification.method()) {
                case McpSchema.METHOD_NOTIFICATION_PROGRESS -> progress.add(transport.unmarshalFrom(
                        notification.params(), new TypeRef<McpSchema.ProgressNotification>() { }));
                case McpSchema.METHOD_NOTIFICATION_MESSAGE -> logs.add(transport.unmarshalFrom(
                        notification.params(), new TypeRef<McpSchema.LoggingMessageNotification>() { }));
                default -> { }
            }
        }
    }
}
