package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static io.countersign.console.RealConsole.onFx;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.main.Section;
import io.countersign.engine.port.RunSummary;
import io.countersign.engine.state.RunStatus;
import java.util.List;
import javafx.scene.Node;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.matcher.control.LabeledMatchers;

/** The Runs list has the inbox's search and a status filter, driven with real keys and clicks. */
class RunsSearchTest extends ConsoleRobotTest {
    private List<String> listedAgents(FxRobot robot) {
        return onFx(() -> robot.lookup("#recentList").<ListView<RunSummary>>query().getItems().stream()
                .map(RunSummary::agent).toList());
    }

    @Test
    void aSearchAndAStatusNarrowTheRunsList(FxRobot robot) {
        openDemo(robot, WindowSize.SMALLEST);
        ToolSettingsTest.openSection(robot, Section.RUNS);
        await(() -> window.viewModel().runs().runs().size() == 4);

        robot.clickOn("#runsSearch").write("jonas changelog");
        await(() -> listedAgents(robot).equals(List.of("web-research")));
        robot.interact(() -> robot.lookup("#runsSearch").queryTextInputControl().selectAll());
        robot.type(KeyCode.BACK_SPACE);
        await(() -> listedAgents(robot).size() == 4);

        robot.clickOn("#runsStatus");
        robot.clickOn(robot.lookup(".list-cell").match(LabeledMatchers.hasText("completed")).<Node>query());
        await(() -> listedAgents(robot).equals(List.of("workspace-auditor")));
        assertThat(onFx(() -> robot.lookup("#runsStatus").<ComboBox<RunStatus>>query().getValue()))
                .isEqualTo(RunStatus.COMPLETED);

        robot.clickOn("#runsSearch").write("release");
        await(() -> listedAgents(robot).isEmpty());
        assertThat(onFx(() -> robot.lookup("#runsPlaceholder").queryAs(Label.class).getText()))
                .isEqualTo("No run matches the search and the status.");
    }
}
