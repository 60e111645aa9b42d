package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static io.countersign.console.RealConsole.onFx;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.main.Detail;
import io.countersign.console.main.Section;
import io.countersign.engine.event.GovernanceEvent;
import javafx.scene.Node;
import javafx.scene.control.TableView;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.testfx.api.FxRobot;
import org.testfx.matcher.control.LabeledMatchers;

/** Each screen owns its detail pane, and Back returns to where the person came from. */
class ScreenDetailTest extends ConsoleRobotTest {
    /** Opens the demo at the size and, when an agent is named, its card from the inbox. */
    private void open(FxRobot robot, WindowSize size, String agent, String shownWhenOpen) {
        openDemo(robot, size);
        await(() -> window.viewModel().inbox().allRuns().size() == 3);
        if (agent != null) {
            robot.clickOn(robot.lookup(".inbox-agent").match(LabeledMatchers.hasText(agent)).<Node>query());
            await(() -> robot.lookup(shownWhenOpen).tryQuery().isPresent());
        }
    }

    private Detail detail() {
        return onFx(() -> window.viewModel().detailProperty().get());
    }

    private static boolean anyCardShown(FxRobot robot) {
        return robot.lookup(".submit").tryQuery().isPresent() || robot.lookup(".input-row").tryQuery().isPresent();
    }

    @ParameterizedTest
    @EnumSource(WindowSize.class)
    void theRunsScreenWithNoRunPickedShowsNoCardAndTheInboxGetsItsCardBack(WindowSize size, FxRobot robot) {
        open(robot, size, "release-notes-bot", ".verdict-approve");

        ToolSettingsTest.openSection(robot, Section.RUNS);

        assertThat(detail()).isEqualTo(new Detail.Empty());
        assertThat(onFx(() -> anyCardShown(robot))).isFalse();
        ToolSettingsTest.openSection(robot, Section.INBOX);
        await(() -> detail() instanceof Detail.ApprovalCard && robot.lookup(".verdict-approve").tryQuery()
                .isPresent());
    }

    @ParameterizedTest
    @EnumSource(WindowSize.class)
    void escapeFromATimelineOnTheRunsScreenLeavesNoCardBesideTheList(WindowSize size, FxRobot robot) {
        open(robot, size, "intake-form", ".input-row");
        ToolSettingsTest.openSection(robot, Section.RUNS);
        await(() -> !window.viewModel().runs().runs().isEmpty());

        robot.clickOn(robot.lookup("#recentList .inbox-agent").<Node>query());
        await(() -> detail() instanceof Detail.Timeline);
        robot.type(KeyCode.ESCAPE);

        assertThat(detail()).isEqualTo(new Detail.Empty());
        assertThat(onFx(() -> window.viewModel().sectionProperty().get())).isEqualTo(Section.RUNS);
        assertThat(onFx(() -> anyCardShown(robot))).isFalse();
    }

    @ParameterizedTest
    @EnumSource(WindowSize.class)
    void openRunFromTheDenialsThenEscapeReturnsToTheDenialsWithTheSameRow(WindowSize size, FxRobot robot) {
        open(robot, size, null, null);
        ToolSettingsTest.openSection(robot, Section.DENIALS);
        await(() -> !window.denials().rows().isEmpty());
        // the demo's refusal of the old draft's deletion, in a run the store holds
        robot.clickOn(robot.lookup(".denials-table .table-cell").match(LabeledMatchers.hasText("fs_delete"))
                .<Node>query());
        GovernanceEvent chosen = onFx(() -> window.denials().selectedProperty().get());
        assertThat(chosen.toolName()).isEqualTo("fs_delete");

        robot.clickOn("#openRun");
        await(() -> detail() instanceof Detail.Timeline shown && shown.runId().equals(chosen.runId()));
        robot.type(KeyCode.ESCAPE);

        await(() -> window.viewModel().sectionProperty().get() == Section.DENIALS);
        assertThat(onFx(() -> robot.lookup(".denials-table").<TableView<GovernanceEvent>>query()
                .getSelectionModel().getSelectedItem())).isEqualTo(chosen);
        assertThat(onFx(() -> robot.lookup(".denials-table").query().isVisible())).isTrue();
    }
}
