package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.common.Theme;
import io.countersign.console.main.Section;
import java.nio.file.Path;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.matcher.control.LabeledMatchers;

/** No call to the run service, and so to the store, ever happens on the JavaFX thread. */
@ExtendWith(ApplicationExtension.class)
class FxThreadTest {
    @TempDir
    Path folder;
    private Stage stage;
    private RealConsole console;

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @BeforeEach
    void demo() {
        console = RealConsole.withDemo(folder);
    }

    @AfterEach
    void close() {
        console.close();
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
