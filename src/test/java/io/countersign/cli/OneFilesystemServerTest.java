package io.countersign.cli;

import static org.assertj.core.api.Assertions.assertThat;
import com.fasterxml.jackson.databind.JsonNode;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.store.Store;
import io.countersign.store.StoreLocation;
import io.countersign.tools.mcp.McpPeers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reference filesystem server as ONE record whose reads run free and whose four write tools are declared
 * approval-bound each by itself: a real run through the commands, the store, the tool loop and the server (see
 * {@link McpPeers}).
 */
class OneFilesystemServerTest {
    private static final List<String> WRITES = List.of("files.create_directory", "files.write_file",
            "files.edit_file", "files.move_file");

    @TempDir
    Path folder;
    Path workspace;
    CommandProcess countersign;

    @BeforeEach
    void freshStore() throws Exception {
        workspace = Files.createDirectories(folder.resolve("workspace")).toRealPath();
        Files.writeString(workspace.resolve("notes.txt"), "ship on Friday");
        countersign = new CommandProcess(folder, folder.resolve("countersign.db").toString());
    }

    private static JsonNode done(CommandProcess.Result result) {
        assertThat(result.exitCode()).as(result.err()).isZero();
        return result.json();
    }

    private List<String> filesArgs() {
        return List.of(McpPeers.script(McpPeers.FILESYSTEM, "dist/index.js"), workspace.toString());
    }

    /** Declares the four write tools approval-bound, each by itself; returns who declared them. */
    private String declareTheWritesApprovalBound() {
        String declarer = null;
        for (String tool : WRITES) {
            JsonNode saved = done(countersign.runHere("servers", "set-tool", "files", tool.substring("files.".length()),
                    "--approval-bound", "true"));
            declarer = saved.path("changes").get(0).path("actor").asText();
        }
        return declarer;
    }

    /**
     * An agent whose model first reads (two read tools in one turn), then calls the four write tools in one turn,
     * then answers.
     */
    private void importTheAgent() throws Exception {
        String sub = workspace.resolve("sub").toString();
        Path script = Files.writeString(folder.resolve("tidy.json"), "{\"turns\": ["
                + "{\"content\": \"Reading.\", \"toolCalls\": ["
                + "{\"name\": \"files.read_text_file\", \"arguments\": {\"path\": \"" + workspace + "/notes.txt\"}},"
                + "{\"name\": \"files.list_directory\", \"arguments\": {\"path\": \"" + workspace + "\"}}]},"
                + "{\"content\": \"Writing.\", \"toolCalls\": ["
                + "{\"name\": \"files.create_directory\", \"arguments\": {\"path\": \"" + sub + "\"}},"
                + "{\"name\": \"files.write_file\", \"arguments\": {\"path\": \"" + sub + "/a.txt\","
                + " \"content\": \"hello\"}},"
                + "{\"name\": \"files.edit_file\", \"arguments\": {\"path\": \"" + sub + "/a.txt\","
                + " \"edits\": [{\"oldText\": \"hello\", \"newText\": \"hello world\"}]}},"
                + "{\"name\": \"files.move_file\", \"arguments\": {\"source\": \"" + sub + "/a.txt\","
                + " \"destination\": \"" + sub + "/b.txt\"}}]},"
                + "{\"content\": \"Tidied.\"}]}");
        Path agents = Files.writeString(folder.resolve("agents.json"), "{\"models\": [{\"name\": \"tidy\","
                + " \"provider\": \"scripted\", \"model\": \"tidy\", \"endpoint\": \"" + script + "\","
                + " \"trustZone\": \"local\"}], \"agents\": [{\"name\": \"tidy\", \"model\": \"tidy\","
                + " \"toolGroups\": [\"files\"]}]}");
        done(countersign.runHere("agents", "import", agents.toString()));
    }

    @Test
    void onAServerDeclaredNotApprovalBoundTheReadsRunAndTheWritesDeclaredByThemselvesWaitOnACardThatSaysSo()
            throws Exception {
        done(countersign.runHere("servers", "add", "files", "--command", McpPeers.node(), "--arg", filesArgs().get(0),
                "--arg", filesArgs().get(1), "--approval-bound", "false"));
        String declarer = declareTheWritesApprovalBound();
        importTheAgent();

        theReadsRunAndTheWritesWait(declarer);
    }

    @Test
    void onAServerNobodyDeclaredTheReadsRunAndTheWritesDeclaredByThemselvesWaitOnACardThatSaysSo()
            throws Exception {
        done(countersign.runHere("servers"));
        try (Store store = Store.open(StoreLocation.resolve(folder.resolve("countersign.db").toString(), Map.of()))) {
            store.servers().add(McpServerRecord.stdio("files", McpPeers.node(), filesArgs()),
                    Actor.of("ana", Role.ADMIN));
        }
        String declarer = declareTheWritesApprovalBound();
        importTheAgent();

        theReadsRunAndTheWritesWait(declarer);
    }

    private void theReadsRunAndTheWritesWait(String declarer) {
        JsonNode started = done(countersign.runHere("run", "--agent", "tidy", "--prompt", "Tidy the workspace."));
        assertThat(started.path("status").asText()).isEqualTo("waiting_for_approval");
        String runId = started.path("runId").asText();

        JsonNode shown = done(countersign.runHere("show", runId));
        JsonNode pending = shown.findPath("pending");
        List<String> waiting = new ArrayList<>();
        pending.forEach(call -> waiting.add(call.path("tool").asText()));
        assertThat(waiting).as("the reads ran without a card; only the writes wait").isEqualTo(WRITES);
        pending.forEach(call -> {
            assertThat(call.path("effect").asText()).isEqualTo("unknown");
            assertThat(call.path("effectText").asText())
                    .isEqualTo("remote, declared approval-bound for this tool by " + declarer);
            assertThat(call.path("declaration").path("source").asText()).isEqualTo("tool");
        });
        assertThat(shown.toString()).as("the read's result is in the transcript").contains("ship on Friday");
        assertThat(workspace.resolve("sub")).doesNotExist();

        String digest = shown.findPath("digest").asText();
        JsonNode decided = done(countersign.runHere("decide", runId, "--digest", digest, "--approve-all"));

        assertThat(decided.path("status").asText()).isEqualTo("completed");
        assertThat(workspace.resolve("sub/b.txt")).hasContent("hello world");
        assertThat(workspace.resolve("sub/a.txt")).doesNotExist();
    }
}
