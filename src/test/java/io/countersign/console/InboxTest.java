package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static io.countersign.console.RealConsole.onFx;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.engine.port.WaitingRun;
import java.util.List;
import javafx.scene.Node;
import javafx.scene.control.Label;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.matcher.control.LabeledMatchers;

/** The inbox list over the real run service: what each line shows, the search and the filters. */
class InboxTest extends ConsoleRobotTest {
    @BeforeEach
    void open(FxRobot robot) {
        openDemo(robot, WindowSize.AS_OPENED);
        await(() -> window.viewModel().inbox().allRuns().size() == 3);
    }

    private static List<String> texts(FxRobot robot, String selector) {
        return onFx(() -> robot.lookup(selector).queryAllAs(Label.class).stream().map(Label::getText).toList());
    }

    @Test
    void everyWaitingRunIsListedOldestFirstWithItsFirstToolAndBadges(FxRobot robot) {
        assertThat(texts(robot, ".inbox-agent")).containsExactly("release-notes-bot", "intake-form", "web-research");
        assertThat(texts(robot, ".inbox-tool")).containsExactly("fs_write", "intake_form", "web_fetch");
        assertThat(texts(robot, ".inbox-cell .badge")).containsExactly("write", "1 refused", "input");
        assertThat(texts(robot, ".inbox-waiting")).allMatch(text -> text.endsWith("min"));
        assertThat(onFx(() -> stage.getTitle())).isEqualTo("Countersign · 3 waiting");
    }

    @Test
    void aSearchThatMatchesNothingOffersToClearItself(FxRobot robot) {
        robot.clickOn(".text-field").write("nothing like this");
        await(() -> window.viewModel().inbox().visibleRuns().isEmpty());
        assertThat(texts(robot, ".pane-title")).contains("Inbox · 0 of 3 shown");

        robot.clickOn("#clearFilters");

        await(() -> window.viewModel().inbox().visibleRuns().size() == 3);
    }

    @Test
    void theKindFilterShowsOnlyRunsWaitingForInput(FxRobot robot) {
        robot.clickOn("#kindFilter");
        robot.clickOn(robot.lookup(".list-cell").match(LabeledMatchers.hasText("Input")).<Node>query());

        await(() -> window.viewModel().inbox().visibleRuns().size() == 1);
        assertThat(window.viewModel().inbox().visibleRuns()).extracting(WaitingRun::agent)
                .containsExactly("intake-form");
    }
}
