package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.countersign.console.common.Theme;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.matcher.control.LabeledMatchers;

/**
 * Pictures of the input card refusing a value outside the schema as it is typed, in both themes, at the default
 * size and at 1024×700, written to {@code target/screenshots/} for people to look at.
 */
@ExtendWith(ApplicationExtension.class)
class InputCardScreenshotsTest {
    @TempDir
    Path folder;
    private Stage stage;
    private RealConsole console;

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @AfterEach
    void close() {
        console.close();
    }

    @ParameterizedTest
    @EnumSource(Theme.class)
    void theSchemaErrorsUnderTheFieldsArePhotographed(Theme theme, FxRobot robot) throws Exception {
        console = RealConsole.withDemo(folder);
        ConsoleWindow window = console.open(robot, stage, console.user("maria"), theme);
        String suffix = "-" + theme.name().toLowerCase(Locale.ROOT);
        await(() -> robot.lookup(".inbox-agent").match(LabeledMatchers.hasText("intake-form")).tryQuery()
                .isPresent());
        robot.clickOn(robot.lookup(".inbox-agent").match(LabeledMatchers.hasText("intake-form")).<Node>query());
        await(() -> robot.lookup(".input-row").queryAll().size() == 3);
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

        for (Path shot : List.of(standard, small)) {
            assertThat(Files.size(shot)).as(shot.toString()).isGreaterThan(10_000);
        }
    }
}
