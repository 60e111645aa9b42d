package io.countersign.tools.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.engine.Actor;
import io.countersign.engine.access.ApprovalDeclaration;
import io.countersign.engine.run.ApprovalDecision;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.service.DecisionResult;
import io.countersign.service.RunCard;
import io.countersign.service.WaitingRun;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A host's calls through the gateway follow a tool's own declaration over its server's: the filesystem server
 * fronted as docs (declared not approval-bound) with its {@code write_file} declared approval-bound by itself.
 */
class GatewayToolDeclarationsTest {
    @TempDir
    Path folder;
    private GatewayTestBed bed;
    private CountersignRuntime console;
    private McpSyncClient host;

    @BeforeEach
    void setUp() throws Exception {
        bed = new GatewayTestBed(folder);
        console = bed.console();
        console.store().settings().setToolDeclaration("docs.write_file", ApprovalDeclaration.APPROVAL_BOUND,
                console.localUser());
        StdioClientTransport transport = new StdioClientTransport(ServerParameters.builder(
                GatewayHost.javaCommand()).args(bed.gatewayArguments()).build(), McpJsonDefaults.getMapper());
        transport.setStdErrorHandler(line -> System.err.println("gateway: " + line));
        host = bed.connect(transport, "gateway-test-host");
    }

    @AfterEach
    void tearDown() {
        if (host != null) {
            host.closeGracefully();
        }
        if (bed != null) {
            bed.close();
        }
    }

    @Test
    void aReadOfTheServerPassesAndItsWriteDeclaredByItselfWaitsOnACardThatSaysSo() throws Exception {
        Path workspace = bed.workspace();
        Files.writeString(workspace.resolve("notes.txt"), "ship on Friday");

        McpSchema.CallToolResult read = host.callTool(new McpSchema.CallToolRequest("docs.read_text_file",
                Map.of("path", workspace.resolve("notes.txt").toString())));
        assertThat(GatewayHost.text(read)).isEqualTo("ship on Friday");

        Path plan = workspace.resolve("plan.txt");
        CompletableFuture<McpSchema.CallToolResult> write = CompletableFuture.supplyAsync(() -> host.callTool(
                new McpSchema.CallToolRequest("docs.write_file", Map.of("path", plan.toString(),
                        "content", "step one"))));
        WaitingRun waiting = bed.awaitCard();
        Actor rita = GatewayTestBed.RITA;
        RunCard card = console.runs().card(rita, waiting.runId()).orElseThrow();

        assertThat(card.pending()).singleElement().satisfies(call -> {
            assertThat(call.tool()).isEqualTo("docs.write_file");
            assertThat(call.effect()).as("a remote write is never called a read").isNull();
            assertThat(call.effectText()).isEqualTo("remote, declared approval-bound for this tool by "
                    + console.localUser().name());
        });
        assertThat(plan).doesNotExist();
        assertThat(console.runs().decide(rita, card.runId(), card.digest(),
                List.of(ApprovalDecision.CallVerdict.approve(0)))).isInstanceOf(DecisionResult.Done.class);
        assertThat(write.get(60, TimeUnit.SECONDS).isError()).isFalse();
        assertThat(plan).hasContent("step one");
    }
}
