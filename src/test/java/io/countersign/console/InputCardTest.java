package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static io.countersign.console.RealConsole.onFx;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.common.Theme;
import io.countersign.engine.run.RunStatus;
import io.countersign.service.RunTimeline;
import java.nio.file.Path;
import javafx.scene.Node;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
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

/** The input card on the real scenes, over the real run service and a SQLite store with the demo. */
@ExtendWith(ApplicationExtension.class)
class InputCardTest {
    @TempDir
    Path folder;
    private Stage stage;
    private RealConsole console;

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @BeforeEach
    void openIntakeForm(FxRobot robot) {
        console = RealConsole.withDemo(folder);
        console.open(robot, stage, console.user("maria"), Theme.LIGHT);
        await(() -> robot.lookup(".inbox-agent").match(LabeledMatchers.hasText("intake-form")).tryQuery()
                .isPresent());
        robot.clickOn(robot.lookup(".inbox-agent").match(LabeledMatchers.hasText("intake-form")).<Node>query());
        await(() -> robot.lookup(".input-row").queryAll().size() == 3);
    }

    @AfterEach
    void close() {
        assertThat(console.guard().callsOnFxThread()).as("service calls on the JavaFX thread").isEmpty();
        console.close();
    }

    private static TextField textField(FxRobot robot, int row) {
        return onFx(() -> (TextField) robot.lookup(".input-row").queryAll().stream().skip(row).findFirst()
                .orElseThrow().lookup(".text-field"));
    }

    @Test
    void theFormShowsEveryFieldWithItsRequiredMarkAndTheModelsGuessesOnlyAsHints(FxRobot robot) {
        TextField summary = textField(robot, 0);
        TextField priority = textField(robot, 1);

        assertThat(robot.lookup(".required-mark").queryAll()).hasSize(3);
        assertThat(RealConsole.<String>onFx(summary::getText)).isEmpty();
        assertThat(RealConsole.<String>onFx(summary::getPromptText)).isEqualTo("Model’s guess: Sync stalls on large folders");
        assertThat(RealConsole.<String>onFx(priority::getPromptText)).isEqualTo("Model’s guess: 2");
        assertThat(onFx(() -> robot.lookup(".input-hint").queryAs(Label.class).getText()))
                .isEqualTo("Model’s guess: bug");
    }

    @Test
    void aWrongValueIsShownUnderItsFieldAndARightOneLetsTheRunContinue(FxRobot robot) {
        TextField summary = textField(robot, 0);
        TextField priority = textField(robot, 1);
        robot.clickOn(summary).write("Sync stalls on folders over 10 GB");
        robot.clickOn(priority).write("soon");
        robot.clickOn(".choice-box");
        robot.clickOn(robot.lookup(".menu-item").match(node -> node.lookup(".label") instanceof Label label
                && label.getText().equals("bug")).<Node>query());
        robot.clickOn(".submit");

        await(() -> robot.lookup(".input-error").queryAllAs(Label.class).stream()
                .anyMatch(error -> error.isVisible() && error.getText().equals("Priority must be a whole number")));
        assertThat(RealConsole.<Boolean>onFx(priority::isFocused)).isTrue();
        assertThat(RealConsole.<String>onFx(summary::getText)).isEqualTo("Sync stalls on folders over 10 GB");
        assertThat(onFx(() -> robot.lookup(".choice-box").<ChoiceBox<String>>query().getValue())).isEqualTo("bug");

        robot.doubleClickOn(priority).eraseText(4).write("2");
        robot.clickOn(".submit");

        await(() -> robot.lookup(".toast-text").queryAllAs(Label.class).stream()
                .anyMatch(toast -> toast.getText().equals("intake-form: input sent. The run completed.")));
        String runId = console.runtime().runs().recent(console.admin(), 10).stream()
                .filter(run -> run.agent().equals("intake-form")).findFirst().orElseThrow().runId();
        RunTimeline timeline = console.runtime().runs().timeline(console.admin(), runId);
        assertThat(timeline.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(timeline.entries()).anySatisfy(entry -> assertThat(entry.body())
                .contains("Sync stalls on folders over 10 GB (priority 2, bug)"));
    }
}
