package io.countersign.tools.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.invocation.ToolInvocationRule;
import io.countersign.engine.run.ApprovalDecision;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.service.DecisionResult;
import io.countersign.service.WaitingRun;
import io.countersign.store.Store;
import io.countersign.store.StoreLocation;
import io.countersign.tools.mcp.McpPeers;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * What the gateway's end-to-end tests stand on: a store whose profile {@code desk} fronts two
 * {@code server-filesystem} records over one workspace ({@code docs} free, {@code disk} approval-bound) and
 * {@code server-everything}; a runtime on the same store that decides as a console would; and the command line
 * that starts {@code countersign gateway} as a child process, with {@link NoSecretFilesRule} among its rules.
 */
final class GatewayTestBed implements AutoCloseable {
    static final String ME = System.getProperty("user.name", "operator");
    static final Actor RITA = Actor.of("rita", Role.OPERATOR);

    private final Path folder;
    private final Path workspace;
    private final Path db;
    private final CountersignRuntime console;
    private final List<List<McpSchema.Tool>> listChanges = new CopyOnWriteArrayList<>();
    private final List<McpSchema.ProgressNotification> progress = new CopyOnWriteArrayList<>();

    GatewayTestBed(Path folder) throws Exception {
        this.folder = folder;
        workspace = Files.createDirectories(folder.resolve("workspace")).toRealPath();
        db = folder.resolve("countersign.db");
        try (Store store = Store.open(new StoreLocation.SqliteFile(db))) {
            Actor admin = store.users().signedIn(ME);
            store.users().add(RITA.name(), Set.of(Role.OPERATOR), admin);
            String filesystem = McpPeers.script(McpPeers.FILESYSTEM, "dist/index.js");
            store.servers().add(McpServerRecord.stdio("docs", McpPeers.node(),
                    List.of(filesystem, workspace.toString())), admin);
            store.servers().add(McpServerRecord.stdio("disk", McpPeers.node(),
                    List.of(filesystem, workspace.toString())), admin);
            store.servers().add(McpServerRecord.stdio("everything", McpPeers.node(),
                    List.of(McpPeers.script(McpPeers.EVERYTHING, "dist/index.js"), "stdio")), admin);
            store.settings().setServerApprovalBound("docs", false, admin);
            store.settings().setServerApprovalBound("disk", true, admin);
            store.settings().setServerApprovalBound("everything", false, admin);
        }
        console = CountersignRuntime.open(new StoreLocation.SqliteFile(db), CountersignRuntime.Work.DECIDE,
                Duration.ofSeconds(30));
        console.gateway().profiles().add(console.localUser(), "desk", List.of("docs", "disk", "everything"),
                List.of(), "local", false, null, null);
    }

    /** The runtime a person decides through, on the gateway's store. */
    CountersignRuntime console() {
        return console;
    }

    /** The store's file, for the command line. */
    Path db() {
        return db;
    }

    /** The folder both filesystem servers serve. */
    Path workspace() {
        return workspace;
    }

    /** The Java executable the tests run on. */
    static String javaCommand() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /**
     * The arguments after {@link #javaCommand()} of {@code countersign gateway --profile desk --progress-every 1}
     * and {@code extra}.
     */
    List<String> gatewayArguments(String... extra) throws Exception {
        return gatewayArguments(folder, db, "desk", extra);
    }

    /**
     * The arguments after {@link #javaCommand()} of {@code countersign --store DB gateway --profile PROFILE
     * --progress-every 1} and {@code extra}: the test class path, with a services file (in {@code folder}) that adds
     * {@link NoSecretFilesRule} to the gateway's rules.
     */
    static List<String> gatewayArguments(Path folder, Path db, String profile, String... extra) throws Exception {
        Path plugin = Files.createDirectories(folder.resolve("rules-plugin/META-INF/services"));
        Files.writeString(plugin.resolve(ToolInvocationRule.class.getName()), NoSecretFilesRule.class.getName()
                + "\n");
        String classpath = folder.resolve("rules-plugin") + File.pathSeparator
                + System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> arguments = new ArrayList<>(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp",
                classpath, "io.countersign.app.Main", "--store", db.toString(), "gateway", "--profile", profile,
                "--progress-every", "1"));
        arguments.addAll(List.of(extra));
        return arguments;
    }

    /**
     * A host on the transport, initialized once the fronted servers' tools are all offered (a later server's
     * arrive with list_changed). What it hears of list_changed and progress from then on is in
     * {@link #listChanges()} and {@link #progress()}.
     */
    McpSyncClient connect(McpClientTransport transport, String name) {
        McpSyncClient host = McpClient.sync(transport)
                .clientInfo(new McpSchema.Implementation(name, "1.0"))
                .requestTimeout(Duration.ofMinutes(2))
                .initializationTimeout(Duration.ofMinutes(1))
                .toolsChangeConsumer(listChanges::add)
                .progressConsumer(progress::add)
                .build();
        host.initialize();
        await().atMost(60, TimeUnit.SECONDS).ignoreExceptions().pollDelay(Duration.ofMillis(500))
                .until(() -> toolNames(host).containsAll(List.of("echo", "docs.read_text_file",
                        "disk.write_file")));
        listChanges.clear();
        return host;
    }

    /** The tools/list_changed notifications the hosts heard. */
    List<List<McpSchema.Tool>> listChanges() {
        return listChanges;
    }

    /** The progress notifications the hosts heard. */
    List<McpSchema.ProgressNotification> progress() {
        return progress;
    }

    static List<String> toolNames(McpSyncClient host) {
        return host.listTools().tools().stream().map(McpSchema.Tool::name).toList();
    }

    /**
     * The host's write waits as a card, with progress, until Rita approves it; then it writes the file once, and a
     * second approval of the same card runs nothing.
     */
    void assertAnApprovedWriteRunsOnce(McpSyncClient host) throws Exception {
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
        DecisionResult again = console.runs().decide(RITA, card.runId(), card.digest(),
                List.of(ApprovalDecision.CallVerdict.approve(0)));
        assertThat(again).isNotInstanceOf(DecisionResult.Done.class);
        Files.writeString(plan, "changed by hand");
        assertThat(host.callTool(new McpSchema.CallToolRequest("echo", Map.of("message", "still here")))
                .isError()).isFalse();
        assertThat(plan).hasContent("changed by hand");
    }

    /** Rita denies the host's write: the host gets an error naming her and her reason, and nothing is written. */
    void assertADenialNamesWhoDeclinedIt(McpSyncClient host) throws Exception {
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

    /** The first card in Rita's inbox, once there is one. */
    WaitingRun awaitCard() {
        await().atMost(30, TimeUnit.SECONDS).until(() -> !console.runs().inbox(RITA).isEmpty());
        return console.runs().inbox(RITA).get(0);
    }

    /** A call of the approval-bound {@code disk.write_file}, asking for progress under {@code token}. */
    static McpSchema.CallToolRequest writeRequest(Path file, String content, String token) {
        return McpSchema.CallToolRequest.builder("disk.write_file")
                .arguments(Map.of("path", file.toString(), "content", content))
                .progressToken(token).build();
    }

    static String text(McpSchema.CallToolResult result) {
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }

    @Override
    public void close() {
        console.close();
    }
}
