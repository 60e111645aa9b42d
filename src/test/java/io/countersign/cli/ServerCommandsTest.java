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
 * The {@code servers} commands through {@link Cli#run} in this process, against the reference filesystem server
 * from the npm registry (see {@link McpPeers}: without node and npm the tests fail saying what to install).
 */
class ServerCommandsTest {
    /** The filesystem server's write tools, declared approval-bound each by itself in the tests below. */
    private static final List<String> WRITES = List.of("files.create_directory", "files.write_file",
            "files.edit_file", "files.move_file");

    @TempDir
    Path folder;
    Path workspace;
    CommandProcess countersign;

    @BeforeEach
    void freshStore() throws Exception {
        workspace = Files.createDirectories(folder.resolve("workspace")).toRealPath();
        countersign = new CommandProcess(folder, folder.resolve("countersign.db").toString());
    }

    private CommandProcess.Result addFiles(String... more) {
        List<String> args = new ArrayList<>(List.of("servers", "add", "files", "--command", McpPeers.node(),
                "--arg", McpPeers.script(McpPeers.FILESYSTEM, "dist/index.js"), "--arg", workspace.toString()));
        args.addAll(List.of(more));
        return countersign.runHere(args.toArray(String[]::new));
    }

    /** The filesystem server added straight to the store without a declaration, as the commands never add one. */
    private void addFilesUndeclared() {
        done(countersign.runHere("servers"));
        try (Store store = Store.open(StoreLocation.resolve(folder.resolve("countersign.db").toString(), Map.of()))) {
            store.servers().add(McpServerRecord.stdio("files", McpPeers.node(),
                    List.of(McpPeers.script(McpPeers.FILESYSTEM, "dist/index.js"), workspace.toString())),
                    Actor.of("ana", Role.ADMIN));
        }
    }

    private static JsonNode done(CommandProcess.Result result) {
        assertThat(result.exitCode()).as(result.err()).isZero();
        return result.json();
    }

    private static void assertOneLineError(CommandProcess.Result result, int exitCode, String contains) {
        assertThat(result.exitCode()).as(result.err()).isEqualTo(exitCode);
        assertThat(result.err().lines().toList()).as("stderr").singleElement().asString().contains(contains);
        assertThat(result.out()).isEmpty();
    }

    @Test
    void addListTestAndRemoveTheFilesystemServer() {
        JsonNode added = done(addFiles("--approval-bound", "false", "--group", "workspace", "--data-class",
                "sourceCode", "--timeout", "20"));
        assertThat(added.path("approvalBound").asBoolean()).isFalse();
        assertThat(added.path("changes").findValuesAsText("setting"))
                .containsExactly("server:files", "server_approval_bound:files");

        JsonNode listed = done(countersign.runHere("servers", "list"));
        assertThat(listed).singleElement().satisfies(server -> {
            assertThat(server.path("name").asText()).isEqualTo("files");
            assertThat(server.path("transport").asText()).isEqualTo("stdio");
            assertThat(server.path("args").get(1).asText()).isEqualTo(workspace.toString());
            assertThat(server.path("group").asText()).isEqualTo("workspace");
            assertThat(server.path("dataClass").asText()).isEqualTo("sourceCode");
            assertThat(server.path("timeoutSeconds").asText()).isEqualTo("20");
            assertThat(server.path("approvalBound").asBoolean()).isFalse();
        });

        JsonNode tested = done(countersign.runHere("servers", "test", "files"));
        assertThat(tested.path("tools").toString()).contains("\"files.read_text_file\"", "\"files.write_file\"");

        done(countersign.runHere("servers", "remove", "files"));
        assertThat(done(countersign.runHere("servers"))).isEmpty();
    }

    @Test
    void importedToolsAppearWithTheirServersDeclaration() {
        done(addFiles("--approval-bound", "false", "--data-class", "sourceCode"));

        JsonNode tools = done(countersign.runHere("tools"));

        List<JsonNode> read = new ArrayList<>();
        tools.forEach(tool -> {
            if (tool.path("name").asText().equals("files.read_text_file")) {
                read.add(tool);
            }
        });
        assertThat(read).singleElement().satisfies(tool -> {
            assertThat(tool.path("server").asText()).isEqualTo("files");
            assertThat(tool.path("approvalBound").asBoolean()).isFalse();
            assertThat(tool.path("runsUnattended").asBoolean()).isTrue();
        });
    }

    @Test
    void serverSetChangesTheSameDeclarationTheRecordShows() {
        done(addFiles("--approval-bound", "false"));

        done(countersign.runHere("server", "set", "files", "--approval-bound", "true"));

        assertThat(done(countersign.runHere("servers")).get(0).path("approvalBound").asBoolean()).isTrue();
    }

    @Test
    void editChangesTheGivenFieldsOnly() {
        done(addFiles("--approval-bound", "true"));

        JsonNode edited = done(countersign.runHere("servers", "edit", "files", "--enabled", "false", "--env",
                "API_TOKEN=env:FILES_TOKEN"));

        assertThat(edited.path("enabled").asBoolean()).isFalse();
        assertThat(edited.path("env").path("API_TOKEN").asText()).isEqualTo("env:FILES_TOKEN");
        assertThat(edited.path("command").asText()).isEqualTo(McpPeers.node());
        assertThat(edited.path("approvalBound").asBoolean()).isTrue();
    }

    @Test
    void serversAddWithoutTheDeclarationExitsTwoExplainingBothChoices() {
        CommandProcess.Result result = addFiles();

        assertOneLineError(result, Cli.BAD_USAGE, "servers add needs the server's declaration");
        assertThat(result.err()).contains("--approval-bound true makes every call of its tools wait for an"
                + " operator's approval", "--approval-bound false lets them run without one");
        assertThat(done(countersign.runHere("servers"))).isEmpty();
    }

    @Test
    void anUndeclaredServerAndItsToolsAreListedAsRunningWithoutApproval() throws Exception {
        addFilesUndeclared();

        assertThat(done(countersign.runHere("servers", "list"))).singleElement().satisfies(server -> {
            assertThat(server.path("declaration").asText()).isEqualTo("not declared: runs without approval");
            assertThat(server.path("approvalBound").asBoolean()).isFalse();
        });
        List<JsonNode> write = new ArrayList<>();
        done(countersign.runHere("tools")).forEach(tool -> {
            if (tool.path("name").asText().equals("files.write_file")) {
                write.add(tool);
            }
        });
        assertThat(write).singleElement().satisfies(tool -> {
            assertThat(tool.path("serverDeclaration").asText()).isEqualTo("not declared: runs without approval");
            assertThat(tool.path("approvalBound").asBoolean()).isFalse();
            assertThat(tool.path("runsUnattended").asBoolean()).isTrue();
        });
    }

    @Test
    void declaringAnUndeclaredServerApprovalBoundIsPreviewedAndSavedLikeAnyChange() throws Exception {
        addFilesUndeclared();

        JsonNode preview = done(countersign.runHere("server", "set", "files", "--approval-bound", "true",
                "--preview"));
        assertThat(preview.path("leaveUnattended").toString()).contains("\"files.write_file\"");
        assertThat(preview.path("becomeApprovalBound").toString()).contains("\"files.write_file\"");

        JsonNode saved = done(countersign.runHere("server", "set", "files", "--approval-bound", "true"));
        assertThat(saved.toString()).contains("server_approval_bound:files");
        assertThat(done(countersign.runHere("servers")).get(0).path("declaration").asText())
                .isEqualTo("approval-bound");
    }

    private JsonNode tool(String name) {
        List<JsonNode> found = new ArrayList<>();
        done(countersign.runHere("tools")).forEach(tool -> {
            if (tool.path("name").asText().equals(name)) {
                found.add(tool);
            }
        });
        assertThat(found).as(name).hasSize(1);
        return found.get(0);
    }

    @Test
    void oneServerWithFreeReadsAndApprovalBoundWritesDeclaredPerTool() {
        done(addFiles("--approval-bound", "false"));

        JsonNode preview = done(countersign.runHere("servers", "set-tool", "files", "write_file", "--approval-bound",
                "true", "--preview"));
        assertThat(preview.path("leaveUnattended").toString()).isEqualTo("[\"files.write_file\"]");
        JsonNode saved = done(countersign.runHere("servers", "set-tool", "files", "files.edit_file",
                "--approval-bound", "true"));
        assertThat(saved.path("changes").findValuesAsText("setting"))
                .containsExactly("tool_approval_bound:files.edit_file");
        done(countersign.runHere("servers", "set-tool", "files", "write_file", "--approval-bound", "true"));

        JsonNode write = tool("files.write_file");
        assertThat(write.path("approvalBound").asBoolean()).isTrue();
        assertThat(write.path("effect").asText()).isEqualTo("unknown");
        assertThat(write.path("declaration").path("source").asText()).isEqualTo("tool");
        assertThat(write.path("declaration").path("text").asText()).startsWith("approval-bound (declared for this"
                + " tool by ");
        JsonNode read = tool("files.read_text_file");
        assertThat(read.path("approvalBound").asBoolean()).isFalse();
        assertThat(read.path("declaration").path("text").asText()).startsWith("not approval-bound (from its"
                + " server's declaration");
        assertThat(read.path("serverClaims").asText()).isEqualTo("server says: read-only");
        assertThat(done(countersign.runHere("servers", "show", "files")).path("toolDeclarations").fieldNames())
                .toIterable().containsExactly("files.edit_file", "files.write_file");
    }

    @Test
    void followServerTakesAToolsOwnDeclarationAway() {
        done(addFiles("--approval-bound", "true"));
        done(countersign.runHere("servers", "set-tool", "files", "read_text_file", "--approval-bound", "false"));
        assertThat(tool("files.read_text_file").path("approvalBound").asBoolean()).isFalse();

        JsonNode cleared = done(countersign.runHere("servers", "set-tool", "files", "read_text_file",
                "--follow-server"));

        assertThat(cleared.path("changes").get(0).path("newValue").isNull()).isTrue();
        assertThat(tool("files.read_text_file").path("approvalBound").asBoolean()).isTrue();
        assertThat(done(countersign.runHere("servers", "list")).get(0).path("toolDeclarations").size()).isZero();
    }

    @Test
    void setToolNamesTheRealCauseInOneLine() {
        done(addFiles("--approval-bound", "false"));

        assertOneLineError(countersign.runHere("servers", "set-tool", "nope", "write_file", "--approval-bound",
                "true"), Cli.REFUSED, "no server is named \"nope\"");
        CommandProcess.Result unknownTool = countersign.runHere("servers", "set-tool", "files", "rm_rf",
                "--approval-bound", "true");
        assertOneLineError(unknownTool, Cli.REFUSED, "server files has no tool named \"files.rm_rf\"; its tools:");
        assertThat(unknownTool.err()).contains("files.write_file").doesNotContain("Exception", "\tat ");
        assertOneLineError(countersign.runHere("servers", "set-tool", "files", "write_file"), Cli.BAD_USAGE,
                "needs exactly one of --approval-bound true|false");
        assertOneLineError(countersign.runHere("servers", "set-tool", "files", "write_file", "--approval-bound",
                "true", "--follow-server"), Cli.BAD_USAGE, "needs exactly one of");
    }

    @Test
    void toolSetOnARemoteToolDeclaresItInsteadOfSayingItIsFixed() {
        done(addFiles("--approval-bound", "false"));

        JsonNode saved = done(countersign.runHere("tool", "set", "files.move_file", "--approval-bound", "true"));

        assertThat(saved.path("changes").findValuesAsText("setting"))
                .containsExactly("tool_approval_bound:files.move_file");
        assertThat(tool("files.move_file").path("approvalBound").asBoolean()).isTrue();
    }

    // The filesystem server as ONE record: free reads, its four write tools approval-bound each by itself.

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
        Files.writeString(workspace.resolve("notes.txt"), "ship on Friday");
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
        done(addFiles("--approval-bound", "false"));
        String declarer = declareTheWritesApprovalBound();
        importTheAgent();

        theReadsRunAndTheWritesWait(declarer);
    }

    @Test
    void onAServerNobodyDeclaredTheReadsRunAndTheWritesDeclaredByThemselvesWaitOnACardThatSaysSo()
            throws Exception {
        addFilesUndeclared();
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

    @Test
    void aTakenNameIsRefused() {
        done(addFiles("--approval-bound", "true"));

        assertOneLineError(addFiles("--approval-bound", "false"), Cli.REFUSED, "a server named \"files\" exists already");
    }

    @Test
    void unknownServersAreRefused() {
        assertOneLineError(countersign.runHere("servers", "test", "nope"), Cli.REFUSED,
                "no server is named \"nope\"");
        assertOneLineError(countersign.runHere("servers", "remove", "nope"), Cli.REFUSED,
                "no server is named \"nope\"");
        assertOneLineError(countersign.runHere("servers", "edit", "nope", "--group", "x"), Cli.REFUSED,
                "no server is named \"nope\"");
    }

    @Test
    void aSecretGivenAsAValueIsBadUsage() {
        assertOneLineError(countersign.runHere("servers", "add", "docs", "--url", "https://mcp.example.org/mcp",
                "--header", "Authorization=Bearer s3cr3t", "--approval-bound", "true"), Cli.BAD_USAGE, "give a reference like env:NAME");
    }

    @Test
    void aUrlThatIsNotHttpIsBadUsage() {
        assertOneLineError(countersign.runHere("servers", "add", "docs", "--url", "file:///etc/passwd",
                "--approval-bound", "true"),
                Cli.BAD_USAGE, "needs an absolute http or https URL");
    }

    @Test
    void anEditThatChangesNothingIsBadUsage() {
        assertOneLineError(countersign.runHere("servers", "edit", "files"), Cli.BAD_USAGE,
                "servers edit files changes nothing");
    }

    @Test
    void aServerThatCannotStartIsUnavailableWithTheReason() {
        done(countersign.runHere("servers", "add", "broken", "--command", folder.resolve("missing").toString(),
                "--approval-bound", "true"));

        assertOneLineError(countersign.runHere("servers", "test", "broken"), Cli.UNAVAILABLE, "broken");
    }

    private Path agentFile(String agent) throws Exception {
        return Files.writeString(folder.resolve("agents.json"), "{\"models\": [{\"name\": \"replay\", \"provider\":"
                + " \"scripted\", \"model\": \"replay\", \"endpoint\": \"classpath:/demo/scripts/workspace-auditor.json\","
                + " \"trustZone\": \"local\"}], \"agents\": [" + agent + "]}");
    }

    @Test
    void agentsImportGivesAnAgentTheToolsOfARecordedServer() throws Exception {
        done(addFiles("--approval-bound", "true", "--group", "workspace"));
        Path file = agentFile("{\"name\": \"reader\", \"model\": \"replay\", \"toolGroups\": [\"workspace\"],"
                + " \"allowedTools\": [\"files.read_text_file\"]}");

        JsonNode imported = done(countersign.runHere("agents", "import", file.toString()));

        assertThat(imported.toString()).contains("reader");
    }

    @Test
    void agentsImportRefusesAToolNoServerRecordCanProvide() throws Exception {
        done(addFiles("--approval-bound", "true"));
        Path file = agentFile("{\"name\": \"reader\", \"model\": \"replay\", \"allowedTools\": [\"docs.search\"]}");

        assertOneLineError(countersign.runHere("agents", "import", file.toString()), Cli.BAD_USAGE,
                "\"docs.search\" names a tool of server \"docs\", but no server record has that name; servers: files");
    }

    @Test
    void aServerThatExitsAtStartIsUnavailableWithItsLastLinesOnStderr() {
        done(countersign.runHere("servers", "add", "nodir", "--command", McpPeers.node(), "--arg",
                McpPeers.script(McpPeers.FILESYSTEM, "dist/index.js"), "--arg", folder.resolve("missing").toString(),
                "--approval-bound", "true"));

        assertOneLineError(countersign.runHere("servers", "test", "nodir"), Cli.UNAVAILABLE,
                "its last lines on stderr: Warning: Cannot access directory " + folder.resolve("missing")
                        + ", skipping | Error: None of the specified directories are accessible");
    }

    @Test
    void approvingWhileTheServerIsDownSaysSoAndTheCardStillWaits() throws Exception {
        done(addFiles("--approval-bound", "true"));
        Path script = Files.writeString(folder.resolve("writer.json"), "{\"turns\": [{\"content\": \"Writing.\","
                + " \"toolCalls\": [{\"name\": \"files.write_file\", \"arguments\": {\"path\": \"" + workspace
                + "/notes.txt\", \"content\": \"hello\"}}]}, {\"content\": \"Done.\"}]}");
        Path file = Files.writeString(folder.resolve("agents.json"), "{\"models\": [{\"name\": \"writer\","
                + " \"provider\": \"scripted\", \"model\": \"writer\", \"endpoint\": \"" + script + "\","
                + " \"trustZone\": \"local\"}], \"agents\": [{\"name\": \"writer\", \"model\": \"writer\","
                + " \"toolGroups\": [\"files\"]}]}");
        done(countersign.runHere("agents", "import", file.toString()));
        JsonNode started = done(countersign.runHere("run", "--agent", "writer", "--prompt", "Write the notes."));
        assertThat(started.path("status").asText()).isEqualTo("waiting_for_approval");
        String runId = started.path("runId").asText();
        String digest = done(countersign.runHere("show", runId)).findPath("digest").asText();
        done(countersign.runHere("servers", "edit", "files", "--command", folder.resolve("gone").toString()));

        assertOneLineError(countersign.runHere("decide", runId, "--digest", digest, "--approve-all"),
                Cli.UNAVAILABLE, "run " + runId + ": MCP server files did not connect, so nothing was decided and the"
                        + " card still waits");
        assertThat(done(countersign.runHere("show", runId)).path("status").asText())
                .isEqualTo("waiting_for_approval");
        assertThat(workspace.resolve("notes.txt")).doesNotExist();
    }

    @Test
    void onlyAdminsSeeTheServers() {
        done(countersign.runHere("servers"));

        assertOneLineError(countersign.runHere("--as", "maria", "servers"), Cli.REFUSED,
                "maria (no role) may not view servers");
    }
}
