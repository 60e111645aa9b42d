package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static io.countersign.console.RealConsole.onFx;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.common.Theme;
import io.countersign.engine.state.RunStatus;
import io.countersign.service.RunTimeline;
import io.countersign.service.SettingRequest;
import java.util.List;
import javafx.scene.Node;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.matcher.control.LabeledMatchers;

/** The input card on the real scenes, over the real run service and a SQLite store with the demo. */
class InputCardTest extends ConsoleRobotTest {
    @BeforeEach
    void openIntakeForm(FxRobot robot) {
        console = RealConsole.withDemo(folder);
        console.open(robot, stage, console.user("maria"), Theme.LIGHT);
        await(() -> robot.lookup(".inbox-agent").match(LabeledMatchers.hasText("intake-form")).tryQuery()
                .isPresent());
        robot.clickOn(robot.lookup(".inbox-agent").match(LabeledMatchers.hasText("intake-form")).<Node>query());
        await(() -> robot.lookup(".input-row").queryAll().size() == 3);
    }

    private static TextField textField(FxRobot robot, int row) {
        return onFx(() -> (TextField) robot.lookup(".input-row").queryAll().stream().skip(row).findFirst()
                .orElseThrow().lookup(".text-field"));
    }

    private static String errorUnder(FxRobot robot, int row) {
        return onFx(() -> {
            Label error = (Label) robot.lookup(".input-row").queryAll().stream().skip(row).findFirst().orElseThrow()
                    .lookup(".input-error");
            return error.isVisible() ? error.getText() : "";
        });
    }

    private String intakeRunId() {
        return console.runtime().runs().recent(console.admin(), 10).stream()
                .filter(run -> run.agent().equals("intake-form")).findFirst().orElseThrow().runId();
    }

    private void chooseBug(FxRobot robot) {
        robot.clickOn(".choice-box");
        robot.clickOn(robot.lookup(".menu-item").match(node -> node.lookup(".label") instanceof Label label
                && label.getText().equals("bug")).<Node>query());
    }

    private static boolean toastSays(FxRobot robot, String text) {
        return robot.lookup(".toast-text").queryAllAs(Label.class).stream().anyMatch(toast -> toast.getText()
                .equals(text));
    }

    @Test
    void aPriorityAboveTheSchemasMaximumIsExplainedUnderTheFieldAsItIsTypedAndIsNotSent(FxRobot robot) {
        TextField priority = textField(robot, 1);
        robot.clickOn(priority).write("9");

        await(() -> errorUnder(robot, 1).equals("argument \"priority\": must be at most 4"));

        chooseBug(robot);
        robot.clickOn(".submit");
        await(() -> errorUnder(robot, 0).equals("argument \"summary\": is required"));
        assertThat(RealConsole.<Boolean>onFx(textField(robot, 0)::isFocused)).as("first error focused").isTrue();
        assertThat(errorUnder(robot, 1)).isEqualTo("argument \"priority\": must be at most 4");
        assertThat(console.runtime().store().runs().find(intakeRunId()).orElseThrow().status())
                .isEqualTo(RunStatus.WAITING_FOR_INPUT);
        assertThat(robot.lookup(".toast-text").queryAll()).isEmpty();

        robot.write("Sync stalls");
        robot.doubleClickOn(priority).eraseText(1).write("4");
        await(() -> errorUnder(robot, 1).isEmpty());
        robot.clickOn(".submit");

        await(() -> toastSays(robot, "intake-form: input sent. The run completed."));
        assertThat(console.runtime().runs().timeline(console.admin(), intakeRunId()).entries())
                .anySatisfy(entry -> assertThat(entry.body()).contains("Sync stalls (priority 4, bug)"));
    }

    @Test
    void lettersInTheNumberFieldStayAndAreExplained(FxRobot robot) {
        TextField priority = textField(robot, 1);
        robot.clickOn(priority).write("two");

        await(() -> errorUnder(robot, 1).equals("argument \"priority\": must be an integer, got \"two\""));
        assertThat(RealConsole.<String>onFx(priority::getText)).isEqualTo("two");
    }

    @Test
    void theToastSaysSoWhenTheCallGivenItsInputWasRefused(FxRobot robot) {
        // an admin turns the form's tool off while the card waits: the input is valid, the call is refused
        console.runtime().settings().change(console.admin(),
                List.of(new SettingRequest.ToolEnabled("intake_form", false)));
        robot.clickOn(textField(robot, 0)).write("Sync stalls");
        robot.clickOn(textField(robot, 1)).write("2");
        chooseBug(robot);
        robot.clickOn(".submit");

        await(() -> robot.lookup(".toast-text").queryAllAs(Label.class).stream().anyMatch(toast -> toast.getText()
                .startsWith("intake-form: input sent. But intake_form was refused: tool \"intake_form\" is not"
                        + " available in this run")));
        String toast = onFx(() -> robot.lookup(".toast-text").queryAs(Label.class).getText());
        assertThat(toast).endsWith("Nothing was executed. The run completed.");
        ScreenshotWriter.write(stage.getScene(), "input-card-refused-call-toast-light");
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
                .anyMatch(error -> error.isVisible()
                        && error.getText().equals("argument \"priority\": must be an integer, got \"soon\"")));
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
