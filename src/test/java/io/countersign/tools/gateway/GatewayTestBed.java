package io.countersign.tools.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.countersign.cli.Cli;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.WaitingRun;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.store.Store;
import io.countersign.store.StoreLocation;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.PrintWriter;
import java.io.StringWriter;
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
    private final List<HttpGatewayProcess> listeners = new CopyOnWriteArrayList<>();

    GatewayTestBed(Path folder) throws Exception {
        this.folder = folder;
        workspace = Files.createDirectories(folder.resolve("workspace")).toRealPath();
        db = folder.resolve("countersign.db");
        try (Store store = Store.open(new StoreLocation.SqliteFile(db))) {
            Actor admin = store.users().signedIn(ME);
            store.users().add(RITA.name(), Set.of(Role.OPERATOR), admin);
            GatewayHost.addServers(store, admin, workspace);
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

    /**
     * The arguments after {@link GatewayHost#javaCommand()} of {@code countersign gateway --profile desk --progress-every 1}
     * and {@code extra}.
     */
    List<String> gatewayArguments(String... extra) throws Exception {
        return GatewayHost.gatewayArguments(folder, db, "desk", extra);
    }

    /** {@code countersign gateway --listen 127.0.0.1:0} with {@code extra} on this store, stopped with the bed. */
    HttpGatewayProcess listen(String... extra) throws Exception {
        List<String> command = new ArrayList<>(List.of(GatewayHost.javaCommand()));
        command.addAll(gatewayArguments("--listen", "127.0.0.1:0"));
        command.addAll(List.of(extra));
        HttpGatewayProcess listener = HttpGatewayProcess.start(command);
        listeners.add(listener);
        return listener;
    }

    /**
     * A host on the transport, initialized once the fronted servers' tools are all offered (a later server's
     * arrive with list_changed). What it hears of list_changed and progress from then on is in
     * {@link #listChanges()} and {@link #progress()}.
     */
    McpSyncClient connect(McpClientTransport transport, String name) {
        return GatewayHost.start(transport, new McpSchema.Implementation(name, "1.0"), listChanges, progress,
                List.of("echo", "docs.read_text_file", "disk.write_file"));
    }

    /** The tools/list_changed notifications the hosts heard. */
    List<List<McpSchema.Tool>> listChanges() {
        return listChanges;
    }

    /** The progress notifications the hosts heard. */
    List<McpSchema.ProgressNotification> progress() {
        return progress;
    }

    /**
     * The host's write waits as a card, with progress, until Rita approves it; then it writes the file once, and a
     * second approval of the same card runs nothing.
     */
    void assertAnApprovedWriteRunsOnce(McpSyncClient host) throws Exception {
        Path plan = workspace.resolve("plan.txt");
        CompletableFuture<McpSchema.CallToolResult> write = CompletableFuture.supplyAsync(() -> host.callTool(
                GatewayHost.writeRequest(plan, "step one", "w1")));

        WaitingRun card = awaitCard();
        assertThat(card.agent()).isEqualTo("desk");
        assertThat(card.firstTool()).isEqualTo("disk.write_file");
        assertThat(console.runs().card(RITA, card.runId()).orElseThrow().pending()).hasSize(1);
        await().atMost(10, TimeUnit.SECONDS).until(() -> !progress.isEmpty());
        assertThat(plan).doesNotExist();
        assertThat(write).isNotDone();

        DecisionResult decided = console.runs().decide(RITA, card.runId(), card.digest(),
                List.of(Decision.CallVerdict.approve(0)));

        assertThat(decided).isInstanceOf(DecisionResult.Done.class);
        McpSchema.CallToolResult result = write.get(60, TimeUnit.SECONDS);
        assertThat(result.isError()).isFalse();
        assertThat(plan).hasContent("step one");
        assertThat(progress).allSatisfy(note -> assertThat(note.progressToken()).isEqualTo("w1"));
        DecisionResult again = console.runs().decide(RITA, card.runId(), card.digest(),
                List.of(Decision.CallVerdict.approve(0)));
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
                GatewayHost.writeRequest(draft, "half done", "d1")));
        WaitingRun card = awaitCard();

        console.runs().decide(RITA, card.runId(), card.digest(),
                List.of(new Decision.CallVerdict(0, false, "not in the plan")));

        McpSchema.CallToolResult denied = write.get(60, TimeUnit.SECONDS);
        assertThat(denied.isError()).isTrue();
        assertThat(GatewayHost.text(denied))
                .isEqualTo("Error: declined by rita: not in the plan. Nothing was executed.");
        assertThat(draft).doesNotExist();
        assertThat(console.runs().inbox(RITA)).isEmpty();
    }

    /** What a command of the command line came to. */
    record CliOutcome(int exitCode, String out, String err) {
    }

    /** The command on the test bed's store as a script runs it, in this process: its exit code and what it printed. */
    CliOutcome cli(String... args) {
        List<String> all = new ArrayList<>(List.of("--store", db.toString()));
        all.addAll(List.of(args));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exitCode = Cli.run(all.toArray(String[]::new), Map.of(), new PrintWriter(out, true),
                new PrintWriter(err, true));
        return new CliOutcome(exitCode, out.toString(), err.toString());
    }

    /** The first card in Rita's inbox, once there is one. */
    WaitingRun awaitCard() {
        await().atMost(30, TimeUnit.SECONDS).until(() -> !console.runs().inbox(RITA).isEmpty());
        return console.runs().inbox(RITA).get(0);
    }

    @Override
    public void close() {
        try {
            for (HttpGatewayProcess listener : listeners) {
                listener.close();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            console.close();
        }
    }
}
