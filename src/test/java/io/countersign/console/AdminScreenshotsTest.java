package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.common.Theme;
import io.countersign.console.main.Section;
import io.countersign.engine.Role;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Pictures of the admin screens at 1280×800 in both themes, over the demo with a remote server's tools, written
 * to {@code target/screenshots/}: tool settings with and without a pending change, a remote tool declared by itself
 * (at 1024×700), and users and roles with the last admin's refusal.
 */
class AdminScreenshotsTest extends ConsoleRobotTest {
    @ParameterizedTest
    @EnumSource(Theme.class)
    void theAdminScreensArePhotographed(Theme theme, FxRobot robot) throws Exception {
        console = RealConsole.withDemo(folder);
        AdminTestTools.registerRemote(console.runtime().registry());
        ConsoleWindow window = console.open(robot, stage, console.admin(), theme);
        String suffix = "-" + theme.name().toLowerCase(Locale.ROOT);
        List<Path> shots = new ArrayList<>();
        await(() -> window.viewModel().inbox().allRuns().size() == 3);

        ToolSettingsTest.openSection(robot, Section.SETTINGS);
        int tools = console.runtime().registry().names().size();
        await(() -> robot.lookup("#toolTable").queryAs(TableView.class).getItems().size() == tools
                && !robot.lookup("#historyTable").queryAs(TableView.class).getItems().isEmpty());
        shots.add(ScreenshotWriter.write(window.scene(), "tool-settings" + suffix));

        robot.clickOn(ToolSettingsTest.toggle(robot, "approval-switch", "web_fetch"));
        await(() -> !robot.lookup(".preview-effect").queryAll().isEmpty()
                && !robot.lookup("#save").query().isDisabled());
        shots.add(ScreenshotWriter.write(window.scene(), "tool-settings-preview" + suffix));
        robot.clickOn("#save");
        await(() -> robot.lookup(".settings-status").queryAs(Label.class).getText().equals("Saved 1 change."));
        shots.add(ScreenshotWriter.write(window.scene(), "tool-settings-saved" + suffix));

        ToolSettingsTest.openSection(robot, Section.USERS);
        await(() -> robot.lookup("#userTable").queryAs(TableView.class).getItems().size() == 3);
        robot.clickOn("#newName").write("maria");
        robot.clickOn("#add");
        await(() -> !robot.lookup("#nameError").queryAs(Label.class).getText().isEmpty());
        shots.add(ScreenshotWriter.write(window.scene(), "users-name-taken" + suffix));
        robot.clickOn(robot.lookup(".role-" + Role.ADMIN.name().toLowerCase(Locale.ROOT)).queryAll().stream()
                .filter(box -> console.admin().name().equals(box.getUserData())).findFirst().orElseThrow());
        await(() -> !robot.lookup("#problem").queryAs(Label.class).getText().isEmpty());
        shots.add(ScreenshotWriter.write(window.scene(), "users-last-admin" + suffix));

        // a remote tool declared by itself beside one that follows its server, at the smallest window
        WindowSize.SMALLEST.apply(robot, stage);
        ToolSettingsTest.openSection(robot, Section.SETTINGS);
        WaitForAsyncUtils.waitForFxEvents();
        robot.clickOn(ToolSettingsTest.toggle(robot, "approval-switch", AdminTestTools.REMOTE_FETCH));
        await(() -> !robot.lookup("#save").query().isDisabled());
        shots.add(ScreenshotWriter.write(window.scene(), "tool-settings-remote-preview" + suffix));
        robot.clickOn("#save");
        await(() -> robot.lookup(".settings-status").queryAs(Label.class).getText().equals("Saved 1 change."));
        ToolSettingsTest.toggle(robot, "approval-switch", AdminTestTools.REMOTE_FETCH);
        shots.add(ScreenshotWriter.write(window.scene(), "tool-settings-remote" + suffix));

        for (Path shot : shots) {
            assertThat(Files.size(shot)).as(shot.toString()).isGreaterThan(10_000);
        }
    }
}
