package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.common.Theme;
import io.countersign.console.main.Section;
import javafx.scene.Node;
import javafx.scene.control.Label;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.matcher.control.LabeledMatchers;

/** No call to the run service, and so to the store, ever happens on the JavaFX thread. */
class FxThreadTest extends ConsoleRobotTest {
    @BeforeEach
    void demo() {
        console = RealConsole.withDemo(folder);
    }

    /** Its tests read the guard themselves, and one calls the service on the JavaFX thread on purpose. */
    @Override
    void checkNoServiceCallOnTheFxThread() {
    }

    @Test
    void theGuardCatchesAServiceCallOnTheFxThread(FxRobot robot) {
        robot.interact(() -> console.service().inbox(console.admin()));

        assertThat(console.guard().callsOnFxThread()).containsExactly("inbox");
    }

    @Test
    void aWholeSessionCallsTheServiceOnlyInTheBackground(FxRobot robot) {
        ConsoleWindow window = console.open(robot, stage, console.admin(), Theme.LIGHT);
        await(() -> window.viewModel().inbox().allRuns().size() == 3);
        robot.clickOn(robot.lookup(".inbox-agent").match(LabeledMatchers.hasText("release-notes-bot"))
                .<Node>query());
        await(() -> robot.lookup(".verdict-approve").tryQuery().isPresent());
        robot.clickOn(".verdict-approve").clickOn(".submit");
        await(() -> robot.lookup(".input-row").queryAll().size() == 3);
        // sent once the undo time is over
        await(() -> console.guard().calls().contains("decide"));
        robot.clickOn(".timeline-link");
        await(() -> robot.lookup(".timeline-entry").tryQuery().isPresent());
        robot.interact(() -> window.viewModel().sectionProperty().set(Section.RUNS));
        await(() -> robot.lookup("#recentList .inbox-agent").queryAllAs(Label.class).size() >= 4);
        robot.clickOn("#newRunButton");
        await(() -> robot.lookup("#agent").tryQuery().isPresent());

        assertThat(console.guard().calls()).contains("inbox", "card", "decide", "timeline", "recent", "agents");
        assertThat(console.guard().callsOnFxThread()).isEmpty();
    }
}
