package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static io.countersign.console.RealConsole.onFx;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.common.Theme;
import io.countersign.engine.Actor;
import io.countersign.tools.gateway.GatewayHost;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.testfx.api.FxRobot;

/**
 * A gateway run's card with real parts: the SDK's client as the MCP host, {@code countersign gateway} in a child
 * process in front of the reference filesystem server, and the console over the same store, decided with the
 * keyboard.
 */
class GatewayCardTest extends ConsoleRobotTest {
    private Path workspace;
    private GatewayHost host;
    private Actor admin;

    @AfterEach
    void disconnect() {
        if (host != null) {
            host.close();
        }
    }

    /** The profile {@code desk} fronts the filesystem server twice, as docs (no approval) and disk (approval-bound). */
    private void connect(FxRobot robot, Theme theme) throws Exception {
        console = RealConsole.connectingServers(folder);
        admin = console.admin();
        workspace = Files.createDirectories(folder.resolve("workspace")).toRealPath();
        GatewayHost.addServers(console.runtime().store(), admin, workspace);
        console.runtime().gateway().profiles().add(admin, "desk", List.of("docs", "disk"), List.of(), "local",
                false, null, null);
        host = GatewayHost.connect(folder, folder.resolve("countersign.db"), "desk", List.of("disk.write_file"));
        window = console.open(robot, stage, admin, theme);
        WindowSize.SMALLEST.apply(robot, stage);
        // a headless window gets the keyboard only after a click; the header does nothing when clicked
        robot.clickOn(".pane-title");
    }

    private CompletableFuture<McpSchema.CallToolResult> write(Path file, String content, String token) {
        return CompletableFuture.supplyAsync(() -> host.client().callTool(GatewayHost.writeRequest(file, content,
                token)));
    }

    /** Opens the waiting card with J, as a person moves to the oldest card. */
    private static void openCard(FxRobot robot) {
        await(() -> robot.lookup(".inbox-agent").queryAllAs(Label.class).stream()
                .anyMatch(agent -> agent.getText().equals("desk")));
        robot.type(KeyCode.J);
        await(() -> robot.lookup(".verdict-approve").tryQuery().isPresent());
    }

    private static List<String> labels(FxRobot robot) {
        return onFx(() -> robot.lookup(".card .label").queryAllAs(Label.class).stream().map(Label::getText)
                .toList());
    }

    private static String arguments(FxRobot robot) {
        return onFx(() -> robot.lookup(".card .call-arguments").queryTextInputControl().getText());
    }

    @Test
    void theHostsWriteIsApprovedAndASecondDeniedWithTheKeyboard(FxRobot robot) throws Exception {
        connect(robot, Theme.LIGHT);
        Path plan = workspace.resolve("plan.txt");
        CompletableFuture<McpSchema.CallToolResult> approved = write(plan, "step one", "w1");

        openCard(robot);
        assertThat(labels(robot)).contains("MCP host gateway-test-host 1.0", "disk.write_file");
        assertThat(arguments(robot)).contains(plan.toString()).contains("step one");
        assertThat(approved).isNotDone();
        robot.type(KeyCode.A).type(KeyCode.ENTER);

        McpSchema.CallToolResult result = approved.get(60, TimeUnit.SECONDS);
        assertThat(result.isError()).isFalse();
        assertThat(GatewayHost.text(result)).contains("Successfully wrote to " + plan);
        assertThat(plan).hasContent("step one");
        // written once: a change by hand stays while the host goes on
        Files.writeString(plan, "changed by hand");

        Path draft = workspace.resolve("draft.txt");
        CompletableFuture<McpSchema.CallToolResult> denied = write(draft, "half done", "d1");
        openCard(robot);
        assertThat(arguments(robot)).contains(draft.toString());
        robot.type(KeyCode.D).write("not in the plan").type(KeyCode.ENTER);

        McpSchema.CallToolResult refusal = denied.get(60, TimeUnit.SECONDS);
        assertThat(refusal.isError()).isTrue();
        assertThat(GatewayHost.text(refusal)).isEqualTo("Error: declined by " + admin.name()
                + ": not in the plan. Nothing was executed.");
        assertThat(draft).doesNotExist();
        assertThat(plan).hasContent("changed by hand");
    }

    @Test
    void aHostThatDisconnectsWhileItsCardIsOpenLeavesNothingToApprove(FxRobot robot) throws Exception {
        connect(robot, Theme.LIGHT);
        Path late = workspace.resolve("late.txt");
        write(late, "too late", "g1").exceptionally(closed -> null);
        openCard(robot);

        host.close();

        await(() -> robot.lookup(".card .banner-text").queryAllAs(Label.class).stream()
                .anyMatch(text -> text.getText().startsWith("This run no longer waits")));
        assertThat(onFx(() -> robot.lookup(".submit").queryAs(Button.class).isDisabled())).isTrue();
        robot.type(KeyCode.A).type(KeyCode.ENTER);
        assertThat(late).doesNotExist();
        assertThat(console.runtime().runs().inbox(admin)).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Theme.class)
    void theGatewayCardIsPhotographed(Theme theme, FxRobot robot) throws Exception {
        connect(robot, theme);
        write(workspace.resolve("release/NOTES.md"), "## 2.4\n\n- faster sync\n", "p1")
                .exceptionally(closed -> null);
        openCard(robot);
        // the arguments unfolded, as a person reads what the host asks to write
        robot.clickOn(".card .call-arguments-pane > .title");
        await(() -> robot.lookup(".card .call-arguments").query().isVisible());
        Path shot = ScreenshotWriter.write(window.scene(), "gateway-card-" + theme.name().toLowerCase(Locale.ROOT));
        assertThat(Files.size(shot)).isGreaterThan(10_000);
    }
}
