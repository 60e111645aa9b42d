package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static io.countersign.console.RealConsole.onFx;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.denials.DenialsViewModel;
import io.countersign.console.main.Section;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import javafx.scene.Node;
import javafx.scene.control.Button;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.testfx.api.FxRobot;
import org.testfx.matcher.control.LabeledMatchers;

/** The denial browser's export and purge leave the keyboard where the person had it and offer nothing empty. */
class DenialsFocusTest extends ConsoleRobotTest {
    @TempDir
    Path exports;

    private DenialsViewModel openDenials(FxRobot robot, WindowSize size) {
        openDemo(robot, size);
        ToolSettingsTest.openSection(robot, Section.DENIALS);
        DenialsViewModel denials = window.denials();
        await(() -> !denials.rows().isEmpty() && !denials.chartsLoadingProperty().get());
        return denials;
    }

    @ParameterizedTest
    @EnumSource(WindowSize.class)
    void afterAnExportTheFocusIsBackOnExportNotOnPurge(WindowSize size, FxRobot robot) {
        DenialsViewModel denials = openDenials(robot, size);
        Path target = exports.resolve("all.csv");
        CountDownLatch release = new CountDownLatch(1);
        console.guard().beforeEachCall(method -> {
            if (method.equals("exportCsv")) {
                awaitQuietly(release);
            }
        });
        // the save dialog of the desktop does not open headless: the export starts as the dialog would start it
        robot.interact(() -> {
            robot.lookup("#exportButton").query().requestFocus();
            denials.export().start(target);
        });
        // the export runs long enough for the window to lay itself out around it
        await(() -> robot.lookup("#cancelExport").query().isVisible());
        release.countDown();

        await(() -> !denials.export().runningProperty().get() && Files.exists(target));

        assertThat(onFx(() -> robot.lookup("#exportButton").query().isFocused())).isTrue();
        assertThat(onFx(() -> robot.lookup("#purgeButton").query().isFocused())).isFalse();
    }

    @ParameterizedTest
    @EnumSource(WindowSize.class)
    void aPurgeOfNothingCannotBeConfirmed(WindowSize size, FxRobot robot) {
        DenialsViewModel denials = openDenials(robot, size);
        long before = onFx(() -> denials.totalProperty().get());

        robot.clickOn("#purgeButton");
        robot.doubleClickOn("#purgeDays .text-field").write("36500");
        robot.clickOn(robot.lookup(".dialog-pane .button").match(LabeledMatchers.hasText("Count them")).<Node>query());
        await(() -> robot.lookup(".dialog-pane .button").match(LabeledMatchers.hasText("Delete 0")).tryQuery()
                .isPresent());

        assertThat(onFx(() -> robot.lookup(".dialog-pane .button").match(LabeledMatchers.hasText("Delete 0"))
                .queryAs(Button.class).isDisabled())).isTrue();
        robot.clickOn(robot.lookup(".dialog-pane .button").match(LabeledMatchers.hasText("Cancel")).<Node>query());
        assertThat(onFx(() -> denials.totalProperty().get())).isEqualTo(before);
    }
}
