package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.common.Theme;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.stage.Window;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.matcher.control.LabeledMatchers;

/** The New run dialog over the real run service. */
class NewRunDialogTest extends ConsoleRobotTest {
    @BeforeEach
    void open(FxRobot robot) {
        console = RealConsole.withDemo(folder);
        window = console.open(robot, stage, console.user("maria"), Theme.LIGHT);
        await(() -> window.viewModel().inbox().allRuns().size() == 3);
        robot.clickOn("#newRunButton");
        await(() -> robot.lookup(".new-run").tryQuery().isPresent());
    }

    private void startRun(FxRobot robot, String agent, String prompt) {
        robot.clickOn("#agent");
        robot.clickOn(robot.lookup(".list-cell").match(LabeledMatchers.hasText(agent)).<Node>query());
        robot.clickOn("#prompt").write(prompt);
    }

    private static boolean dialogOpen() {
        return Window.getWindows().stream().anyMatch(window -> window.isShowing()
                && window.getScene().getRoot().getStyleClass().contains("new-run"));
    }

    @Test
    void aRunStartedFromTheDialogWaitsInTheInbox(FxRobot robot) {
        startRun(robot, "web-research", "Compare the changelog of 2.4");
        robot.clickOn("#start");

        await(() -> !dialogOpen());
        await(() -> robot.lookup(".toast-text").queryAllAs(Label.class).stream()
                .anyMatch(toast -> toast.getText().equals("Started web-research. It waits for approval.")));
        await(() -> window.viewModel().inbox().allRuns().size() == 4);
    }

    @Test
    void anUnattendedRunFinishesWithoutWaiting(FxRobot robot) {
        startRun(robot, "workspace-auditor", "What does the workspace hold?");
        robot.clickOn("#unattended");
        robot.clickOn("#start");

        await(() -> robot.lookup(".toast-text").queryAllAs(Label.class).stream()
                .anyMatch(toast -> toast.getText().equals("Started workspace-auditor. The run completed.")));
        assertThat(window.viewModel().inbox().allRuns()).hasSize(3);
    }

    @Test
    void theDialogSaysWhatItStillNeedsBeforeItCanStart(FxRobot robot) {
        assertThat(robot.lookup("#missing").queryAs(Label.class).getText()).isEqualTo("Pick an agent.");
        assertThat(robot.lookup("#start").query().isDisabled()).isTrue();

        startRun(robot, "web-research", "Compare");

        assertThat(robot.lookup("#missing").queryAs(Label.class).getText()).isEmpty();
        assertThat(robot.lookup("#start").query().isDisabled()).isFalse();
    }
}
