package io.countersign.tools.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.WaitingRun;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.store.Store;
import io.countersign.store.StoreLocation;
import io.countersign.tools.mcp.McpPeers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gateway with a published host-side client: the reference MCP Inspector's command-line mode, each call a
 * process of its own that starts {@code countersign gateway} as its server command over stdio and prints the
 * answer as JSON; a person's decision taken through the run service of another runtime on the same store.
 */
class GatewayInspectorTest {
    private static final String ME = System.getProperty("user.name", "operator");
    private static final Actor RITA = Actor.of("rita", Role.OPERATOR);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long INSPECTOR_SECONDS = 90;

    @TempDir
    Path folder;
    private Path workspace;
    private Path db;
    private CountersignRuntime console;

    @BeforeEach
    void setUp() throws Exception {
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
            store.settings().setServerApprovalBound("docs", false, admin);
            store.settings().setServerApprovalBound("disk", true, admin);
        }
        console = CountersignRuntime.open(new StoreLocation.SqliteFile(db), CountersignRuntime.Work.DECIDE,
                Duration.ofSeconds(30));
        console.gateway().profiles().add(console.localUser(), "desk", List.of("docs", "disk"), List.of(), "local",
                false, null, null);
    }

    @AfterEach
    void tearDown() {
        if (console != null) {
            console.close();
        }
    }

    @Test
    void listsTheFrontedServersToolsUnderTheNamesTheGatewayGives() throws Exception {
        JsonNode listed = start(List.of("--method", "tools/list")).answer();

        List<String> names = new ArrayList<>();
        listed.path("tools").forEach(tool -> names.add(tool.path("name").asText()));
        assertThat(names).contains("docs.read_text_file", "disk.write_file", "docs.list_directory");
        JsonNode write = find(listed.path("tools"), "disk.write_file");
        assertThat(write.path("inputSchema").path("required").toString()).isEqualTo("[\"path\",\"content\"]");
    }

    @Test
    void aReadComesBackToTheInspector() throws Exception {
        Files.writeString(workspace.resolve("notes.txt"), "ship on Friday");

        JsonNode read = call("docs.read_text_file", "path=" + workspace.resolve("notes.txt")).answer();

        assertThat(read.path("isError").asBoolean(false)).isFalse();
        assertThat(text(read)).isEqualTo("ship on Friday");
    }

    @Test
    void aCallAPreApprovalRuleRefusesComesBackWithTheRulesTextAndNeverReachesTheServer() throws Exception {
        Path secret = workspace.resolve("secret.txt");

        JsonNode refused = call("disk.write_file", "path=" + secret, "content=leak").answer();

        assertThat(refused.path("isError").asBoolean()).isTrue();
        assertThat(text(refused)).isEqualTo("Error: invocation denied (rule: test.no.secret.files, reason:"
                + " secret_path). Nothing was executed. The path " + secret + " names a secret, which no call may"
                + " touch.");
        assertThat(secret).doesNotExist();
        assertThat(console.runs().inbox(RITA)).isEmpty();
    }

    @Test
    void aWriteWaitsAsACardAndApprovingItReturnsTheResultToTheWaitingInspector() throws Exception {
        Path plan = workspace.resolve("plan.txt");
        Inspector waiting = start(callArguments("disk.write_file", "path=" + plan, "content=step one"));

        await().atMost(60, TimeUnit.SECONDS).until(() -> !console.runs().inbox(RITA).isEmpty()
                || !waiting.process().isAlive());
        assertThat(waiting.process().isAlive()).as("the Inspector waits for the card: %s", waiting.log()).isTrue();
        WaitingRun card = console.runs().inbox(RITA).get(0);
        assertThat(card.firstTool()).isEqualTo("disk.write_file");
        assertThat(plan).doesNotExist();

        DecisionResult decided = console.runs().decide(RITA, card.runId(), card.digest(),
                List.of(Decision.CallVerdict.approve(0)));

        assertThat(decided).isInstanceOf(DecisionResult.Done.class);
        JsonNode written = waiting.answer();
        assertThat(written.path("isError").asBoolean(false)).isFalse();
        assertThat(text(written)).contains("Successfully wrote to " + plan);
        assertThat(plan).hasContent("step one");
    }

    /** An Inspector process that calls one tool; its arguments as {@code key=value}. */
    private Inspector call(String tool, String... arguments) throws Exception {
        return start(callArguments(tool, arguments));
    }

    private static List<String> callArguments(String tool, String... arguments) {
        List<String> options = new ArrayList<>(List.of("--method", "tools/call", "--tool-name", tool, "--tool-arg"));
        options.addAll(List.of(arguments));
        return options;
    }

    /** {@code mcp-inspector --cli <the gateway's command> <options>}, as {@code npx} would start it. */
    private Inspector start(List<String> options) throws Exception {
        List<String> command = new ArrayList<>(List.of(McpPeers.node(),
                McpPeers.script(McpPeers.INSPECTOR, "cli/build/cli.js"), "--cli"));
        command.addAll(gatewayCommand());
        command.addAll(options);
        Path out = Files.createTempFile(folder, "inspector-", ".json");
        Path err = Files.createTempFile(folder, "inspector-", ".log");
        Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
                .start();
        return new Inspector(process, out, err);
    }

    /** A running Inspector and where its output goes. */
    private record Inspector(Process process, Path out, Path err) {
        /** Waits for the Inspector to finish and returns the JSON it printed. */
        JsonNode answer() throws Exception {
            if (!process.waitFor(INSPECTOR_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("the Inspector did not finish within " + INSPECTOR_SECONDS + " s: "
                        + log());
            }
            assertThat(process.exitValue()).as("the Inspector's exit status: %s", log()).isZero();
            return JSON.readTree(out.toFile());
        }

        String log() throws IOException {
            return Files.readString(out, StandardCharsets.UTF_8) + Files.readString(err, StandardCharsets.UTF_8);
        }
    }

    /** The java command of {@code countersign gateway}, with {@link NoSecretFilesRule} on its class path. */
    private List<String> gatewayCommand() throws Exception {
        List<String> command = new ArrayList<>(List.of(GatewayHost.javaCommand()));
        command.addAll(GatewayHost.gatewayArguments(folder, db, "desk"));
        return command;
    }

    private static JsonNode find(JsonNode tools, String name) {
        for (JsonNode tool : tools) {
            if (tool.path("name").asText().equals(name)) {
                return tool;
            }
        }
        throw new AssertionError("no tool " + name + " in " + tools);
    }

    private static String text(JsonNode result) {
        return result.path("content").path(0).path("text").asText();
    }
}
