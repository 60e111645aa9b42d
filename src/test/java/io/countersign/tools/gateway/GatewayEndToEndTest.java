package io.countersign.tools.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static io.countersign.tools.gateway.GatewayHost.text;
import static io.countersign.tools.gateway.GatewayHost.writeRequest;
import static org.awaitility.Awaitility.await;

import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.run.ApprovalDecision;
import io.countersign.engine.run.RunStatus;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.service.DecisionResult;
import io.countersign.service.WaitingRun;
import io.countersign.store.Store;
import io.countersign.store.StoreLocation;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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
    private static final String ME = System.getProperty("user.name", "operator");
    private static final Actor RITA = Actor.of("rita", Role.OPERATOR);

    @TempDir
    Path folder;
    private Path workspace;
    private CountersignRuntime console;
    private GatewayHost gateway;
    private McpSyncClient host;
    private List<List<McpSchema.Tool>> listChanges;
    private List<McpSchema.ProgressNotification> progress;

    @BeforeEach
    void setUp() throws Exception {
        workspace = Files.createDirectories(folder.resolve("workspace")).toRealPath();
        Path db = folder.resolve("countersign.db");
        try (Store store = Store.open(new StoreLocation.SqliteFile(db))) {
            Actor admin = store.users().signedIn(ME);
            store.users().add(RITA.name(), Set.of(Role.OPERATOR), admin);
            GatewayHost.addServers(store, admin, workspace);
        }
        console = CountersignRuntime.open(new StoreLocation.SqliteFile(db), CountersignRuntime.Work.DECIDE,
                Duration.ofSeconds(30));
        console.gateway().profiles().add(console.localUser(), "desk", List.of("docs", "disk", "everything"),
                List.of(), "local", false, null, null);
        gateway = GatewayHost.connect(folder, db, "desk", List.of("echo", "docs.read_text_file",
                "disk.write_file"));
        host = gateway.client();
        listChanges = gateway.listChanges();
        progress = gateway.progress();
    }

    @AfterEach
    void tearDown() {
        if (gateway != null) {
            gateway.close();
        }
        if (console != null) {
            console.close();
        }
    }

    @Test
    void offersTheFrontedServersToolsUnderTheirOwnNamesPrefixedOnlyWhereTheyClash() {
        List<String> names = gateway.toolNames();

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
            assertThat(run.initiator()).isEqualTo(ME);
            assertThat(run.prompt()).isEqualTo("MCP host gateway-test-host 1.0");
            assertThat(run.status()).isEqualTo(RunStatus.RUNNING);
        });
    }

    @Test
    void aWriteWaitsAsACardAndApprovingItWritesTheFileExactlyOnce() throws Exception {
        Path plan = workspace.resolve("plan.txt");
        CompletableFuture<McpSchema.CallToolResult> write = CompletableFuture.supplyAsync(() -> host.callTool(
                writeRequest(plan, "step one", "w1")));

        WaitingRun card = awaitCard();
        assertThat(card.agent()).isEqualTo("desk");
        assertThat(card.firstTool()).isEqualTo("disk.write_file");
        assertThat(console.runs().card(RITA, card.runId()).orElseThrow().pending()).hasSize(1);
        await().atMost(10, TimeUnit.SECONDS).until(() -> !progress.isEmpty());
        assertThat(plan).doesNotExist();
        assertThat(write).isNotDone();

        DecisionResult decided = console.runs().decide(RITA, card.runId(), card.digest(),
                List.of(ApprovalDecision.CallVerdict.approve(0)));

        assertThat(decided).isInstanceOf(DecisionResult.Done.class);
        McpSchema.CallToolResult result = write.get(60, TimeUnit.SECONDS);
        assertThat(result.isError()).isFalse();
        assertThat(plan).hasContent("step one");
        assertThat(progress).allSatisfy(note -> assertThat(note.progressToken()).isEqualTo("w1"));
        // a second decision on the same card is refused, and nothing runs twice
        DecisionResult again = console.runs().decide(RITA, card.runId(), card.digest(),
                List.of(ApprovalDecision.CallVerdict.approve(0)));
        assertThat(again).isNotInstanceOf(DecisionResult.Done.class);
        Files.writeString(plan, "changed by hand");
        assertThat(host.callTool(new McpSchema.CallToolRequest("echo", Map.of("message", "still here")))
                .isError()).isFalse();
        assertThat(plan).hasContent("changed by hand");
    }

    @Test
    void aDenialComesBackAsAnErrorNamingWhoDeclinedIt() throws Exception {
        Path draft = workspace.resolve("draft.txt");
        CompletableFuture<McpSchema.CallToolResult> write = CompletableFuture.supplyAsync(() -> host.callTool(
                writeRequest(draft, "half done", "d1")));
        WaitingRun card = awaitCard();

        console.runs().decide(RITA, card.runId(), card.digest(),
                List.of(new ApprovalDecision.CallVerdict(0, false, "not in the plan")));

        McpSchema.CallToolResult denied = write.get(60, TimeUnit.SECONDS);
        assertThat(denied.isError()).isTrue();
        assertThat(text(denied)).isEqualTo("Error: declined by rita: not in the plan. Nothing was executed.");
        assertThat(draft).doesNotExist();
        assertThat(console.runs().inbox(RITA)).isEmpty();
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
        assertThat(gateway.toolNames()).doesNotContain("echo").contains("disk.write_file");
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

        gateway.close();

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
        AtomicInteger polls = new AtomicInteger();
        await().atMost(30, TimeUnit.SECONDS).until(() -> {
            polls.incrementAndGet();
            return !console.runs().inbox(RITA).isEmpty();
        });
        return console.runs().inbox(RITA).get(0);
    }
}
