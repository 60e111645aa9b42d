package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.common.Theme;
import io.countersign.console.denials.DenialsViewModel;
import io.countersign.console.denials.TimeRange;
import io.countersign.console.main.Section;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.testfx.api.FxRobot;
import org.testfx.matcher.control.LabeledMatchers;

/**
 * Pictures of every screen at 1280×800 in both themes, over the demo, written to {@code target/screenshots/}
 * for people to look at: the inbox, a card with a refused call, an input card with an error, and a timeline;
 * and the input card's schema errors also at 1024×700.
 */
class ScreenshotsTest extends ConsoleRobotTest {
    private void open(FxRobot robot, String agent) {
        robot.clickOn(robot.lookup(".inbox-agent").match(LabeledMatchers.hasText(agent)).<Node>query());
    }

    @ParameterizedTest
    @EnumSource(Theme.class)
    void everyScreenIsPhotographed(Theme theme, FxRobot robot) throws Exception {
        console = RealConsole.withDemo(folder);
        ConsoleWindow window = console.open(robot, stage, console.user("maria"), theme);
        String suffix = "-" + theme.name().toLowerCase(Locale.ROOT);
        List<Path> shots = new ArrayList<>();
        await(() -> window.viewModel().inbox().allRuns().size() == 3);
        assertThat(window.scene().getWidth()).isEqualTo(ConsoleWindow.WIDTH);
        assertThat(window.scene().getHeight()).isEqualTo(ConsoleWindow.HEIGHT);
        shots.add(ScreenshotWriter.write(window.scene(), "inbox" + suffix));

        open(robot, "release-notes-bot");
        await(() -> robot.lookup(".refused-pane").tryQuery().isPresent());
        shots.add(ScreenshotWriter.write(window.scene(), "approval-card" + suffix));
        robot.clickOn(".verdict-deny").clickOn("#reason").write("Wrong target");
        shots.add(ScreenshotWriter.write(window.scene(), "approval-card-deciding" + suffix));
        // the refused call sits below the waiting one: the badge in the header scrolls to it
        robot.clickOn(".card-top .badge-refused");
        shots.add(ScreenshotWriter.write(window.scene(), "approval-card-refused-call" + suffix));
        robot.type(KeyCode.ENTER);

        // the decided card leaves, the next one (the input card) opens, and a toast says what was done
        await(() -> robot.lookup(".input-row").queryAll().size() == 3
                && robot.lookup(".toast").tryQuery().isPresent());
        shots.add(ScreenshotWriter.write(window.scene(), "input-card" + suffix));
        robot.clickOn(robot.lookup(".input-row .text-field").<Node>query()).write("Sync stalls");
        robot.type(KeyCode.TAB).write("soon").type(KeyCode.ENTER);
        await(() -> robot.lookup(".input-error").queryAllAs(Label.class).stream().anyMatch(Node::isVisible));
        shots.add(ScreenshotWriter.write(window.scene(), "input-card-errors" + suffix));

        // the denial is sent once its undo time is over; the timeline then shows it
        await(() -> robot.lookup(".toast-text").queryAllAs(Label.class).stream()
                .anyMatch(toast -> toast.getText().startsWith("release-notes-bot: 1 call denied.")));
        robot.interact(() -> window.viewModel().sectionProperty().set(Section.RUNS));
        await(() -> robot.lookup("#recentList .inbox-agent").queryAllAs(Label.class).stream()
                .anyMatch(label -> label.getText().startsWith("workspace-auditor")));
        robot.clickOn(robot.lookup("#recentList .inbox-agent").queryAllAs(Label.class).stream()
                .filter(label -> label.getText().startsWith("release-notes-bot")).findFirst().orElseThrow());
        await(() -> robot.lookup(".entry-decision").tryQuery().isPresent());
        shots.add(ScreenshotWriter.write(window.scene(), "timeline" + suffix));

        // the same card on a large screen
        robot.interact(() -> {
            stage.setX(0);
            stage.setY(0);
            stage.setWidth(1920);
            stage.setHeight(1080);
        });
        robot.interact(() -> window.viewModel().sectionProperty().set(Section.INBOX));
        open(robot, "web-research");
        await(() -> robot.lookup(".verdict-approve").tryQuery().isPresent() && window.scene().getWidth() == 1920);
        shots.add(ScreenshotWriter.write(window.scene(), "approval-card-1920x1080" + suffix));

        for (Path shot : shots) {
            assertThat(Files.size(shot)).as(shot.toString()).isGreaterThan(10_000);
        }
    }

    @ParameterizedTest
    @EnumSource(Theme.class)
    void theEmptyInboxIsPhotographed(Theme theme, FxRobot robot) throws Exception {
        console = RealConsole.empty(folder);
        ConsoleWindow window = console.open(robot, stage, console.admin(), theme);
        await(() -> window.viewModel().inbox().loadedProperty().get());
        await(() -> robot.lookup(".empty-title").queryAs(Label.class).getText().equals("Nothing is waiting."));

        Path shot = ScreenshotWriter.write(window.scene(), "inbox-empty-" + theme.name().toLowerCase(Locale.ROOT));

        assertThat(robot.lookup(".empty-text").queryAs(Label.class).getText())
                .isEqualTo("Runs appear here the moment they pause.");
        assertThat(Files.size(shot)).isGreaterThan(10_000);
    }

    /** Priority 9 of a 1-4 field, refused under the field as typed; the empty required fields on sending. */
    @ParameterizedTest
    @EnumSource(Theme.class)
    void theInputCardsSchemaErrorsArePhotographedAtTwoSizes(Theme theme, FxRobot robot) throws Exception {
        console = RealConsole.withDemo(folder);
        ConsoleWindow window = console.open(robot, stage, console.user("maria"), theme);
        await(() -> robot.lookup(".inbox-agent").match(LabeledMatchers.hasText("intake-form")).tryQuery()
                .isPresent());
        open(robot, "intake-form");
        await(() -> robot.lookup(".input-row").queryAll().size() == 3);
        String suffix = "-" + theme.name().toLowerCase(Locale.ROOT);
        robot.clickOn(robot.lookup(".input-row .text-field").queryAll().stream().skip(1).findFirst().orElseThrow())
                .write("9");
        robot.clickOn(".submit");
        await(() -> robot.lookup(".input-error").queryAllAs(Label.class).stream().filter(Node::isVisible).count()
                == 3);
        Path standard = ScreenshotWriter.write(window.scene(), "input-card-schema-errors" + suffix);
        robot.interact(() -> {
            stage.setWidth(1024);
            stage.setHeight(700);
        });
        await(() -> window.scene().getWidth() == 1024);
        Path small = ScreenshotWriter.write(window.scene(), "input-card-schema-errors-1024x700" + suffix);

        assertThat(Files.size(standard)).isGreaterThan(10_000);
        assertThat(Files.size(small)).isGreaterThan(10_000);
    }

    @ParameterizedTest
    @EnumSource(Theme.class)
    void theDenialBrowserIsPhotographed(Theme theme, FxRobot robot) throws Exception {
        console = RealConsole.withDemo(folder);
        console.runtime().store().events().appendAll(new EventSeeds(7, Instant.now(), Duration.ofDays(30), 3_000)
                .next(3_000));
        ConsoleWindow window = console.open(robot, stage, console.admin(), theme);
        robot.interact(() -> window.viewModel().sectionProperty().set(Section.DENIALS));
        DenialsViewModel denials = window.denials();
        robot.interact(() -> denials.filters().rangeProperty().set(TimeRange.LAST_30_DAYS));
        await(() -> denials.rows().size() == DenialsViewModel.PAGE_SIZE && !denials.chartsLoadingProperty().get());
        robot.interact(() -> denials.selectedProperty().set(denials.rows().stream()
                .filter(event -> event.ruleId() != null).findFirst().orElseThrow()));

        Path shot = ScreenshotWriter.write(window.scene(), "denials-" + theme.name().toLowerCase(Locale.ROOT));

        assertThat(Files.size(shot)).isGreaterThan(10_000);
    }
}
