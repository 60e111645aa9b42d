package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static io.countersign.console.RealConsole.onFx;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.common.Theme;
import io.countersign.console.main.Detail;
import io.countersign.service.WaitingRun;
import java.nio.file.Path;
import java.util.List;
import javafx.scene.control.Label;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/** The console driven by the keyboard alone, over the real run service and a SQLite store with the demo. */
@ExtendWith(ApplicationExtension.class)
class KeyboardTest {
    @TempDir
    Path folder;
    private Stage stage;
    private RealConsole console;
    private ConsoleWindow window;

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @BeforeEach
    void open(FxRobot robot) {
        console = RealConsole.withDemo(folder);
        window = console.open(robot, stage, console.admin(), Theme.LIGHT);
        await(() -> window.viewModel().inbox().allRuns().size() == 3);
        // a headless window gets the keyboard only after a click; the header does nothing when clicked
        robot.clickOn(".pane-title");
    }

    @AfterEach
    void close() {
        assertThat(console.guard().callsOnFxThread()).as("service calls on the JavaFX thread").isEmpty();
        console.close();
    }

    private String runOf(String agent) {
        return console.runtime().runs().inbox(console.admin()).stream().filter(run -> run.agent().equals(agent))
                .map(WaitingRun::runId).findFirst().orElseThrow();
    }

    private Detail detail() {
        return onFx(() -> window.viewModel().detailProperty().get());
    }

    private String submitText(FxRobot robot) {
        return onFx(() -> robot.lookup(".submit").queryButton().getText());
    }

    @Test
    void jAndKMoveThroughTheCardsOldestFirst(FxRobot robot) {
        robot.type(KeyCode.J);
        Detail first = detail();
        robot.type(KeyCode.J);
        Detail second = detail();
        robot.type(KeyCode.K);

        assertThat(first).isEqualTo(new Detail.ApprovalCard(runOf("release-notes-bot")));
        assertThat(second).isEqualTo(new Detail.InputCard(runOf("intake-form")));
        assertThat(detail()).isEqualTo(first);
    }

    @Test
    void aDigitAAndDSetTheVerdictsAndTheSubmitButtonSaysWhatWillHappen(FxRobot robot) {
        robot.type(KeyCode.J);
        await(() -> robot.lookup(".verdict-approve").tryQuery().isPresent());

        robot.type(KeyCode.A);
        String approved = submitText(robot);
        robot.type(KeyCode.DIGIT1);
        String toggled = submitText(robot);
        robot.type(KeyCode.D);

        assertThat(List.of(approved, toggled)).containsExactly("Submit: 1 approve", "Submit: 1 deny");
        assertThat(onFx(() -> robot.lookup("#reason").query().isFocused())).isTrue();
    }

    @Test
    void jADAndEnterDecideTwoCardsWithoutTheMouse(FxRobot robot) {
        robot.type(KeyCode.J);
        await(() -> robot.lookup(".verdict-approve").tryQuery().isPresent());
        robot.type(KeyCode.D).write("Not needed").type(KeyCode.ENTER);

        await(() -> toastSays(robot, "release-notes-bot: 1 call denied. The run completed."));
        await(() -> detail().equals(new Detail.InputCard(runOf("intake-form"))));
        robot.type(KeyCode.J);
        await(() -> detail().equals(new Detail.ApprovalCard(runOf("web-research")))
                && robot.lookup(".verdict-approve").tryQuery().isPresent());
        robot.type(KeyCode.A).type(KeyCode.ENTER);

        // the demo's fetch of example.com fails here without a network, and the toast then says so
        await(() -> robot.lookup(".toast-text").queryAllAs(Label.class).stream().map(Label::getText)
                .anyMatch(text -> text.startsWith("web-research: 1 call approved.")
                        && text.endsWith("The run completed.")));
        assertThat(console.runtime().runs().inbox(console.admin())).extracting(WaitingRun::agent)
                .containsExactly("intake-form");
    }

    @Test
    void ctrlFSearchesAndEscapeReturnsToTheList(FxRobot robot) {
        robot.press(KeyCode.CONTROL).type(KeyCode.F).release(KeyCode.CONTROL);
        robot.write("web");
        await(() -> window.viewModel().inbox().visibleRuns().size() == 1);
        robot.type(KeyCode.ESCAPE).type(KeyCode.J);

        assertThat(detail()).isEqualTo(new Detail.ApprovalCard(runOf("web-research")));
    }

    @Test
    void escapeLeavesATimelineForTheCard(FxRobot robot) {
        robot.type(KeyCode.J);
        await(() -> robot.lookup(".timeline-link").tryQuery().isPresent());
        robot.clickOn(".timeline-link");
        await(() -> detail() instanceof Detail.Timeline);

        robot.type(KeyCode.ESCAPE);

        assertThat(detail()).isEqualTo(new Detail.ApprovalCard(runOf("release-notes-bot")));
    }

    private static boolean toastSays(FxRobot robot, String text) {
        return robot.lookup(".toast-text").queryAllAs(Label.class).stream()
                .anyMatch(label -> label.getText().equals(text));
    }
}
