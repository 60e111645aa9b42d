package io.countersign.tools.mcp;

import static io.countersign.tools.mcp.ScriptedAgent.answer;
import static io.countersign.tools.mcp.ScriptedAgent.call;
import static io.countersign.tools.mcp.ScriptedAgent.calls;
import static io.countersign.tools.mcp.ScriptedAgent.resultOf;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.engine.TestDecisions;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.tool.ToolSettings;
import io.countersign.engine.run.ToolLoop;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.engine.tool.RemoteTool;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.ToolRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The reference filesystem server over stdio, driven by a scripted agent through the real tool loop. */
class FilesystemServerTest {
    private static final String SERVER = "files";

    @TempDir
    Path workspace;
    private final ToolRegistry registry = new ToolRegistry();
    private McpToolSource source;

    @BeforeEach
    void connect() throws Exception {
        workspace = workspace.toRealPath();
        McpServerRecord record = McpServerRecord.stdio(SERVER, McpPeers.node(),
                List.of(McpPeers.script(McpPeers.FILESYSTEM, "dist/index.js"), workspace.toString()));
        source = McpToolSource.builder(record, registry).build();
        source.open();
    }

    @AfterEach
    void disconnect() {
        source.close();
    }

    @Test
    void importsItsToolsWithTheirSchemas() {
        assertThat(registry.names()).contains("files.read_text_file", "files.write_file", "files.list_directory",
                "files.edit_file");
        Tool write = registry.find("files.write_file").orElseThrow();
        assertThat(write).isInstanceOfSatisfying(RemoteTool.class,
                remote -> assertThat(remote.serverName()).isEqualTo(SERVER));
        assertThat(write.argumentSchema().path("type").asText()).isEqualTo("object");
        assertThat(write.argumentSchema().path("properties").has("content")).isTrue();
        assertThat(write.argumentSchema().path("required").toString()).isEqualTo("[\"path\",\"content\"]");
        assertThat(write.group()).isEqualTo(SERVER);
    }

    @Test
    void aScriptedAgentReadsAFileUnattendedWhereTheServerIsDeclaredNotApprovalBound() throws Exception {
        Path notes = Files.writeString(workspace.resolve("notes.txt"), "ship on Friday");
        ScriptedAgent agent = new ScriptedAgent(registry, SERVER,
                ToolSettings.defaults().withServerApprovalBound(SERVER, false));
        ToolLoop loop = agent.loop(calls(call("c1", "files.read_text_file", "{\"path\": \"" + notes + "\"}")),
                answer("it says ship on Friday"));

        RunOutcome outcome = agent.run(loop, "what do the notes say?");

        assertThat(outcome.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(resultOf(outcome, "c1")).isEqualTo("ship on Friday");
    }

    @Test
    void aWriteOnAnApprovalBoundServerWaitsForApprovalAndHappensAfterIt() {
        Path plan = workspace.resolve("plan.txt");
        ScriptedAgent agent = new ScriptedAgent(registry, SERVER, ToolSettings.defaults().withServerApprovalBound(SERVER, true));
        ToolLoop loop = agent.loop(calls(call("c1", "files.write_file",
                "{\"path\": \"" + plan + "\", \"content\": \"step one\"}")), answer("written"));

        RunOutcome paused = agent.run(loop, "write the plan");

        assertThat(paused).isInstanceOf(RunOutcome.WaitingForApproval.class);
        assertThat(plan).doesNotExist();

        var state = ((RunOutcome.WaitingForApproval) paused).state();
        RunOutcome resumed = loop.resumeApproval(state, agent.configuration,
                TestDecisions.approveAll(state, ScriptedAgent.JONAS));

        assertThat(resumed.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(plan).hasContent("step one");
    }
}
