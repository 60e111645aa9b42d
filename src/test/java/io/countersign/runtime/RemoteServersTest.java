package io.countersign.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import io.countersign.engine.Actor;
import io.countersign.engine.RetryPolicy;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.chat.TrustZone;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.service.RunCard;
import io.countersign.service.RunTimeline;
import io.countersign.service.ServerForm;
import io.countersign.service.StartedRun;
import io.countersign.store.StoreLocation;
import io.countersign.store.StoredAgentConfiguration;
import io.countersign.tools.mcp.McpPeers;
import io.countersign.tools.mcp.RemoteServers;
import io.countersign.tools.mcp.SecretResolver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reference filesystem server as an admin configures it: its record saved through the service, its tools
 * imported by the runtime, and runs of a scripted agent judged on the record's declaration alone.
 */
class RemoteServersTest {
    private static final Duration IMPORT = Duration.ofSeconds(60);

    @TempDir
    Path folder;
    Path workspace;
    CountersignRuntime runtime;
    Actor admin;

    @BeforeEach
    void open() throws Exception {
        workspace = Files.createDirectories(folder.resolve("workspace")).toRealPath();
        runtime = CountersignRuntime.openWithRemoteTools(new StoreLocation.SqliteFile(folder.resolve("cs.db")),
                IMPORT);
        admin = runtime.localUser();
    }

    @AfterEach
    void close() {
        runtime.close();
    }

    private ServerForm filesystemServer() {
        return ServerForm.stdio(McpPeers.node(), List.of(McpPeers.script(McpPeers.FILESYSTEM, "dist/index.js"),
                workspace.toString()));
    }

    /** An agent of the server's tools whose model replays one tool call, then an answer. */
    private void scriptedAgent(String name, String tool, String arguments) throws Exception {
        Path script = Files.writeString(folder.resolve(name + ".json"), "{\"turns\": ["
                + "{\"toolCalls\": [{\"name\": \"" + tool + "\", \"arguments\": " + arguments + "}]},"
                + "{\"content\": \"done\"}]}");
        ModelConfiguration model = new ModelConfiguration(name + "-script", ScriptedModels.PROVIDER, name,
                script.toString(), TrustZone.LOCAL, null, null, null, null);
        runtime.store().configurations().saveModel(model);
        runtime.store().configurations().saveAgent(StoredAgentConfiguration.of(AgentConfiguration.of(name, model,
                List.of("files")).withWorkspace(workspace.toString()), "[]"));
    }

    private void awaitTools(boolean present) {
        await().atMost(IMPORT).until(() -> runtime.registry().names().contains("files.read_text_file") == present);
    }

    @Test
    void aServerDeclaredNotApprovalBoundLetsTheAgentReadUnattended() throws Exception {
        Files.writeString(workspace.resolve("notes.txt"), "ship on Friday");
        scriptedAgent("reader", "files.read_text_file", "{\"path\": \"" + workspace.resolve("notes.txt") + "\"}");

        runtime.servers().add(admin, "files", filesystemServer().withApprovalBound(false));
        awaitTools(true);
        StartedRun run = runtime.runs().start(admin, "reader", "what do the notes say?", true);

        assertThat(run.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(runtime.runs().timeline(admin, run.runId()).entries())
                .filteredOn(entry -> entry.kind() == RunTimeline.Kind.TOOL_RESULT)
                .singleElement().satisfies(entry -> assertThat(entry.body()).contains("ship on Friday"));
    }

    @Test
    void aWriteWaitsForApprovalOnceTheServerIsDeclaredApprovalBoundAndHappensAfterIt() throws Exception {
        Path plan = workspace.resolve("plan.txt");
        scriptedAgent("writer", "files.write_file", "{\"path\": \"" + plan + "\", \"content\": \"step one\"}");
        runtime.servers().add(admin, "files", filesystemServer().withApprovalBound(false));
        awaitTools(true);

        runtime.servers().edit(admin, "files", ServerForm.empty().withApprovalBound(true));
        StartedRun run = runtime.runs().start(admin, "writer", "write the plan", false);

        assertThat(run.status()).isEqualTo(RunStatus.WAITING_FOR_APPROVAL);
        assertThat(plan).doesNotExist();
        RunCard card = runtime.runs().card(admin, run.runId()).orElseThrow();
        DecisionResult decided = runtime.runs().decide(admin, run.runId(), card.digest(),
                List.of(Decision.CallVerdict.approve(0)));
        assertThat(decided).isInstanceOf(DecisionResult.Done.class);
        assertThat(plan).hasContent("step one");
    }

    @Test
    void aServerAddedByAnotherProcessIsImportedHere() {
        StoreLocation sameStore = new StoreLocation.SqliteFile(folder.resolve("cs.db"));
        try (CountersignRuntime other = CountersignRuntime.open(sameStore)) {
            other.servers().add(other.localUser(), "files", filesystemServer());
        }

        awaitTools(true);
    }

    @Test
    void aRemovedServerTakesItsToolsAlong() {
        runtime.servers().add(admin, "files", filesystemServer());
        awaitTools(true);

        runtime.servers().remove(admin, "files");

        awaitTools(false);
        assertThat(runtime.registry().names()).noneMatch(name -> name.startsWith("files."));
    }

    @Test
    void aDisabledServerOffersNoTools() {
        runtime.servers().add(admin, "files", filesystemServer());
        awaitTools(true);

        runtime.servers().edit(admin, "files", ServerForm.empty().withEnabled(false));

        awaitTools(false);
    }

    @Test
    void aServerThatCannotStartIsLoggedInOneLineAndTheOthersImport() {
        List<LogRecord> warnings = new CopyOnWriteArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord log) {
                if (log.getLevel() == Level.WARNING) {
                    warnings.add(log);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger logger = Logger.getLogger(RemoteServers.class.getName());
        logger.addHandler(handler);
        try {
            runtime.servers().add(admin, "broken", ServerForm.stdio(folder.resolve("missing").toString(), List.of()));
            runtime.servers().add(admin, "files", filesystemServer());

            awaitTools(true);
            await().atMost(IMPORT).until(() -> !warnings.isEmpty());
        } finally {
            logger.removeHandler(handler);
        }
        assertThat(warnings).singleElement().satisfies(log -> assertThat(new SimpleFormatter().formatMessage(log))
                .isEqualTo("server \"broken\" could not be started: the command \"" + folder.resolve("missing")
                        + "\" could not be run; its tools are not offered until it can be used, next try in 30 s"
                        + " (countersign servers test broken shows what is wrong)"));
    }

    @Test
    void aServerThatFailedIsTriedAgainUntilItAnswers() throws Exception {
        Path lateNode = folder.resolve("late-node");
        McpServerRecord late = McpServerRecord.stdio("files", lateNode.toString(),
                List.of(McpPeers.script(McpPeers.FILESYSTEM, "dist/index.js"), workspace.toString()));
        ToolRegistry registry = new ToolRegistry();
        try (RemoteServers servers = new RemoteServers(runtime.store().servers(), registry,
                SecretResolver.environment(), new RetryPolicy(Duration.ofMillis(100), 2, Duration.ofMinutes(5),
                        RetryPolicy.UNLIMITED, 0))) {
            runtime.store().servers().add(late, admin);
            servers.start(runtime.store().changes());
            assertThat(servers.awaitImports(IMPORT)).isTrue();
            assertThat(registry.names()).isEmpty();

            Files.createSymbolicLink(lateNode, Path.of(McpPeers.node()));

            await().atMost(IMPORT).until(() -> registry.names().contains("files.read_text_file"));
        }
        assertThat(registry.names()).isEmpty();
    }

    @Test
    void anEnabledServerIsImportedWhenTheRuntimeOpens() {
        runtime.servers().add(admin, "files", filesystemServer());
        runtime.close();

        runtime = CountersignRuntime.openWithRemoteTools(new StoreLocation.SqliteFile(folder.resolve("cs.db")),
                IMPORT);

        assertThat(runtime.registry().names()).contains("files.read_text_file", "files.write_file");
    }
}
