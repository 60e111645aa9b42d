package io.countersign.tools.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.countersign.engine.Actor;
import io.countersign.engine.run.ApprovalDecision;
import io.countersign.engine.run.RunStatus;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.service.DecisionResult;
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
 * The gateway with real parts: the official SDK's client as the host, starting {@code countersign gateway} as its
 * server command over stdio; the gateway in front of the reference filesystem and everything servers; a person's
 * decision taken through the run service of another runtime on the same store, as a console would.
 */
class GatewayEndToEndTest {
    private static final Actor RITA = GatewayTestBed.RITA;

    @TempDir
    Path folder;
    private GatewayTestBed bed;
    private Path workspace;
    private CountersignRuntime console;
    private McpSyncClient host;
    private List<List<McpSchema.Tool>> listChanges;

    @BeforeEach
    void setUp() throws Exception {
        bed = new GatewayTestBed(folder);
        workspace = bed.workspace();
        console = bed.console();
        StdioClientTransport transport = new StdioClientTransport(ServerParameters.builder(
                GatewayTestBed.javaCommand()).args(bed.gatewayArguments()).build(), McpJsonDefaults.getMapper());
        transport.setStdErrorHandler(line -> System.err.println("gateway: " + line));
        host = bed.connect(transport, "gateway-test-host");
        listChanges = bed.listChanges();
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
    void offersTheFrontedServersToolsUnderTheirOwnNamesPrefixedOnlyWhereTheyClash() {
        List<String> names = toolNames();

        assertThat(names).contains("echo", "docs.read_text_file", "disk.write_file");
        assertThat(names).doesNotContain("fs_write", "web_fetch");
        McpSchema.Tool write = host.listTools().tools().stream().filter(t -> t.name().equals("disk.write_file"))
                .findFirst().orElseThrow();
        assertThat(write.inputSchema().get("required")).isEqualTo(List.of("path", "content"));
    }

    @Test
    void aReadPassesStraightThroughAndTheRunShowsTheHost() throws Exception {
        Files.writeString(workspace.resolve("notes.txt"), "ship on Friday");

        McpSchema.CallToolResult read = host.callTool(new McpSchema.CallToolRequest("docs.read_text_file",
                Map.of("path", workspace.resolve("notes.txt").toString())));
        McpSchema.CallToolResult echo = host.callTool(new McpSchema.CallToolRequest("echo",
                Map.of("message", "hello")));

        assertThat(read.isError()).isFalse();
        assertThat(text(read)).isEqualTo("ship on Friday");
        assertThat(text(echo)).contains("hello");
        assertThat(console.runs().recent(RITA, 5)).anySatisfy(run -> {
            assertThat(run.agent()).isEqualTo("desk");
            assertThat(run.initiator()).isEqualTo(GatewayTestBed.ME);
            assertThat(run.prompt()).isEqualTo("MCP host gateway-test-host 1.0");
            assertThat(run.status()).isEqualTo(RunStatus.RUNNING);
        });
    }

    @Test
    void aWriteWaitsAsACardAndApprovingItWritesTheFileExactlyOnce() throws Exception {
        bed.assertAnApprovedWriteRunsOnce(host);
    }

    @Test
    void aDenialComesBackAsAnErrorNamingWhoDeclinedIt() throws Exception {
        bed.assertADenialNamesWhoDeclinedIt(host);
    }

    @Test
    void aCallAPreApprovalRuleRefusesNeverReachesTheServerNorACard() {
        Path secret = workspace.resolve("secret.txt");

        McpSchema.CallToolResult refused = host.callTool(writeRequest(secret, "leak", "r1"));

        assertThat(refused.isError()).isTrue();
        assertThat(text(refused)).isEqualTo("Error: invocation denied (rule: test.no.secret.files, reason:"
                + " secret_path). Nothing was executed. The path " + secret + " names a secret, which no call may"
                + " touch.");
        assertThat(secret).doesNotExist();
        assertThat(console.runs().inbox(RITA)).isEmpty();
    }

    @Test
    void theHostHearsListChangedWhenASettingChanges() {
        assertThat(listChanges).isEmpty();
        Actor admin = console.localUser();

        console.store().settings().setGroupEnabled("everything", false, admin);

        await().atMost(20, TimeUnit.SECONDS).until(() -> !listChanges.isEmpty());
        assertThat(toolNames()).doesNotContain("echo").contains("disk.write_file");
    }

    @Test
    void aHostThatDisconnectsWhileItsCardWaitsLeavesNothingToApprove() throws Exception {
        Path plan = workspace.resolve("late.txt");
        CompletableFuture.runAsync(() -> {
            try {
                host.callTool(writeRequest(plan, "too late", "g1"));
            } catch (RuntimeException closed) {
                // the host itself went away
            }
        });
        WaitingRun card = awaitCard();

        host.closeGracefully();
        host = null;

        await().atMost(20, TimeUnit.SECONDS).until(() -> console.runs().inbox(RITA).stream()
                .noneMatch(run -> run.runId().equals(card.runId())));
        DecisionResult late = console.runs().decide(RITA, card.runId(), card.digest(),
                List.of(ApprovalDecision.CallVerdict.approve(0)));
        assertThat(late).isInstanceOfSatisfying(DecisionResult.AlreadyDecided.class, refused -> {
            assertThat(refused.decidedBy()).isEqualTo("gateway");
            assertThat(refused.summary()).startsWith("the MCP host disconnected: nothing was executed");
        });
        assertThat(console.runs().recent(RITA, 5)).anySatisfy(run -> {
            assertThat(run.runId()).isEqualTo(card.runId());
            assertThat(run.status()).isEqualTo(RunStatus.FAILED);
            assertThat(run.failure()).contains("host_disconnected");
        });
        assertThat(plan).doesNotExist();
    }

    private WaitingRun awaitCard() {
        return bed.awaitCard();
    }

    private static McpSchema.CallToolRequest writeRequest(Path file, String content, String token) {
        return GatewayTestBed.writeRequest(file, content, token);
    }

    private List<String> toolNames() {
        return GatewayTestBed.toolNames(host);
    }

    private static String text(McpSchema.CallToolResult result) {
        return GatewayTestBed.text(result);
    }
}
