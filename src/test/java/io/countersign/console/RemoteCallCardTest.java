package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static io.countersign.console.RealConsole.onFx;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.common.Theme;
import io.countersign.engine.Actor;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.chat.TrustZone;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.tool.ApprovalDeclaration;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.store.StoreLocation;
import io.countersign.store.StoredAgentConfiguration;
import io.countersign.tools.mcp.McpPeers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import javafx.scene.control.Label;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.testfx.api.FxRobot;

/**
 * The card of a call of the reference filesystem server, one record declared not approval-bound whose
 * {@code write_file} an admin declared approval-bound by itself: the card says so, with who declared it, and never
 * calls the write a read.
 */
class RemoteCallCardTest extends ConsoleRobotTest {

    /** A run of an agent that reads, then writes, paused on the write. */
    private void pausedOnTheWrite(Actor admin) throws Exception {
        Path workspace = Files.createDirectories(folder.resolve("workspace")).toRealPath();
        Files.writeString(workspace.resolve("NOTES.md"), "## 2.3\n");
        console.runtime().store().servers().add(McpServerRecord.stdio("files", McpPeers.node(),
                List.of(McpPeers.script(McpPeers.FILESYSTEM, "dist/index.js"), workspace.toString()))
                .withApprovalBound(false), admin);
        console.runtime().store().settings().setToolDeclaration("files.write_file", ApprovalDeclaration.APPROVAL_BOUND,
                admin);
        Path script = Files.writeString(folder.resolve("notes.json"), "{\"turns\": ["
                + "{\"content\": \"Reading the notes.\", \"toolCalls\": [{\"name\": \"files.read_text_file\","
                + " \"arguments\": {\"path\": \"" + workspace + "/NOTES.md\"}}]},"
                + "{\"content\": \"I'll add the 2.4 section.\", \"toolCalls\": [{\"name\": \"files.write_file\","
                + " \"arguments\": {\"path\": \"" + workspace + "/NOTES.md\", \"content\": \"## 2.4\\n\"}}]},"
                + "{\"content\": \"Done.\"}]}");
        ModelConfiguration model = new ModelConfiguration("notes-script", "scripted", "notes", script.toString(),
                TrustZone.LOCAL, null, null, null, null);
        console.runtime().store().configurations().saveModel(model);
        console.runtime().store().configurations().saveAgent(StoredAgentConfiguration.of(
                AgentConfiguration.of("notes-bot", model, List.of("files")), "[]"));
        // started where the server's tools are imported, as the command line does
        try (CountersignRuntime runner = CountersignRuntime.openWithRemoteTools(
                new StoreLocation.SqliteFile(folder.resolve("countersign.db")), Duration.ofSeconds(30))) {
            assertThat(runner.runs().start(admin, "notes-bot", "Add the 2.4 notes.", false).status())
                    .isEqualTo(RunStatus.WAITING_FOR_APPROVAL);
        }
    }

    @ParameterizedTest
    @EnumSource(Theme.class)
    void theCardSaysTheWriteIsDeclaredApprovalBoundForThisToolAndByWhom(Theme theme, FxRobot robot) throws Exception {
        console = RealConsole.connectingServers(folder);
        Actor admin = console.admin();
        pausedOnTheWrite(admin);
        window = console.open(robot, stage, admin, theme);
        WindowSize.SMALLEST.apply(robot, stage);
        robot.clickOn(".pane-title");
        await(() -> robot.lookup(".inbox-agent").queryAllAs(Label.class).stream()
                .anyMatch(agent -> agent.getText().equals("notes-bot")));
        robot.type(KeyCode.J);
        await(() -> robot.lookup(".call-declaration").tryQuery().isPresent());

        assertThat(onFx(() -> robot.lookup(".card .call-declaration").queryAs(Label.class).getText()))
                .isEqualTo("remote, declared approval-bound for this tool by " + admin.name());
        assertThat(onFx(() -> robot.lookup(".card .badge").queryAllAs(Label.class).stream().map(Label::getText)
                .toList())).contains("remote").doesNotContain("read");
        Path shot = ScreenshotWriter.write(window.scene(), "remote-card-" + theme.name().toLowerCase(Locale.ROOT));
        assertThat(Files.size(shot)).isGreaterThan(10_000);
    }
}
