package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.common.Theme;
import io.countersign.console.main.Section;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.stage.Window;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.testfx.api.FxRobot;
import org.testfx.matcher.control.LabeledMatchers;

/**
 * One walk through every screen at each supported size, light and dark, over the demo: the inbox, an approval
 * card, an input card, the Runs list with a timeline, the New run dialog, the denial browser with the purge dialog,
 * tool settings and users. Each picture goes to {@code target/screenshots/tour-<size>-<theme>-<screen>.png} for
 * people to look at, and each screen is checked for controls the window cuts off.
 */
class ScreenTourTest extends ConsoleRobotTest {
    private final Map<String, List<String>> clipped = new LinkedHashMap<>();
    private final List<Path> shots = new ArrayList<>();
    private String prefix;

    @ParameterizedTest(name = "{0}x{1} {2}")
    @CsvSource({"1024, 700, LIGHT", "1024, 700, DARK", "1280, 800, LIGHT", "1280, 800, DARK",
            "1920, 1080, LIGHT", "1920, 1080, DARK"})
    void everyScreenFitsTheWindow(int width, int height, Theme theme, FxRobot robot) {
        console = RealConsole.withDemo(folder);
        AdminTestTools.registerRemote(console.runtime().registry());
        window = console.open(robot, stage, console.admin(), theme);
        robot.interact(() -> {
            stage.setX(0);
            stage.setY(0);
            stage.setWidth(width);
            stage.setHeight(height);
        });
        prefix = "tour-" + width + "x" + height + "-" + theme.name().toLowerCase(Locale.ROOT) + "-";
        await(() -> window.scene().getWidth() == width && window.viewModel().inbox().allRuns().size() == 3);
        shoot("inbox", window.scene());

        openCard(robot, "release-notes-bot", ".refused-pane");
        shoot("approval-card", window.scene());
        openCard(robot, "intake-form", ".input-row");
        shoot("input-card", window.scene());

        ToolSettingsTest.openSection(robot, Section.RUNS);
        await(() -> !window.viewModel().runs().runs().isEmpty());
        shoot("runs", window.scene());
        robot.clickOn(robot.lookup("#recentList .inbox-agent").<Node>query());
        await(() -> robot.lookup(".timeline-entry").tryQuery().isPresent());
        shoot("timeline", window.scene());

        robot.clickOn("#newRunButton");
        await(() -> dialog("new-run") != null);
        shoot("new-run-behind", window.scene());
        shoot("new-run", dialog("new-run"));
        robot.clickOn("#cancel");
        await(() -> dialog("new-run") == null);

        ToolSettingsTest.openSection(robot, Section.DENIALS);
        await(() -> !window.denials().rows().isEmpty() && !window.denials().chartsLoadingProperty().get());
        robot.interact(() -> window.denials().selectedProperty().set(window.denials().rows().get(0)));
        shoot("denials", window.scene());
        robot.clickOn("#purgeButton");
        await(() -> dialog("dialog-pane") != null);
        shoot("purge", dialog("dialog-pane"));
        robot.clickOn(robot.lookup(".dialog-pane .button").match(LabeledMatchers.hasText("Cancel")).<Node>query());
        await(() -> dialog("dialog-pane") == null);

        ToolSettingsTest.openSection(robot, Section.SETTINGS);
        await(() -> !robot.lookup("#toolTable").queryAs(TableView.class).getItems().isEmpty());
        shoot("settings", window.scene());
        ToolSettingsTest.openSection(robot, Section.RULES);
        await(() -> robot.lookup("#ruleId").query().isVisible());
        shoot("rules", window.scene());
        ToolSettingsTest.openSection(robot, Section.USERS);
        await(() -> robot.lookup("#userTable").queryAs(TableView.class).getItems().size() == 3);
        shoot("users", window.scene());

        assertThat(clipped).as("controls the window cuts off, by screen").isEmpty();
        for (Path shot : shots) {
            // the purge dialog is a small picture
            assertThat(RealConsole.onFx(() -> Files.size(shot))).as(shot.toString()).isGreaterThan(3_000);
        }
    }

    private void openCard(FxRobot robot, String agent, String shownWhenOpen) {
        robot.clickOn(robot.lookup(".inbox-agent").match(LabeledMatchers.hasText(agent)).<Node>query());
        await(() -> robot.lookup(shownWhenOpen).tryQuery().isPresent()
                && robot.lookup(".card-title").queryAllAs(Label.class).stream()
                .anyMatch(title -> title.isVisible() && title.getText().startsWith(agent)));
    }

    private void shoot(String screen, Scene scene) {
        shots.add(ScreenshotWriter.write(scene, prefix + screen));
        List<String> cut = RealConsole.onFx(() -> LayoutCheck.clipped(scene));
        if (!cut.isEmpty()) {
            clipped.put(screen, cut);
        }
    }

    /** The scene of the open window other than the console whose root carries the style class, or null. */
    private Scene dialog(String styleClass) {
        return RealConsole.onFx(() -> Window.getWindows().stream()
                .filter(shown -> shown.isShowing() && shown.getScene() != window.scene()
                        && shown.getScene().getRoot().getStyleClass().contains(styleClass))
                .map(Window::getScene).findFirst().orElse(null));
    }
}
