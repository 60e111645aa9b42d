package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static io.countersign.console.RealConsole.onFx;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.main.Detail;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.port.WaitingRun;
import java.util.List;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.testfx.api.FxRobot;

/** The console driven by the keyboard alone, over the real run service and a SQLite store with the demo. */
class KeyboardTest extends ConsoleRobotTest {
    @BeforeEach
    void open(FxRobot robot) {
        openDemo(robot, WindowSize.AS_OPENED);
        await(() -> window.viewModel().inbox().allRuns().size() == 3);
        // a headless window gets the keyboard only after a click; the header does nothing when clicked
        robot.clickOn(".pane-title");
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
        // A leaves the person in the reason field; Esc takes them back to the list, where digits toggle
        robot.type(KeyCode.ESCAPE).type(KeyCode.DIGIT1);
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

        await(() -> webResearchApprovalToastShows(robot));
        assertThat(console.runtime().runs().inbox(console.admin())).extracting(WaitingRun::agent)
                .containsExactly("intake-form");
    }

    @Test
    void ctrlFSearchesAndEscapeReturnsToTheList(FxRobot robot) {
        robot.press(KeyCode.CONTROL).type(KeyCode.F).release(KeyCode.CONTROL);
        robot.write("web");
        await(() -> window.viewModel().inbox().visibleRuns().size() == 1);
        robot.type(KeyCode.ESCAPE);

        assertThat(onFx(() -> window.viewModel().inbox().visibleRuns().size())).isEqualTo(3);
        assertThat(onFx(() -> robot.lookup(".inbox #search").queryTextInputControl().getText())).isEmpty();
        robot.type(KeyCode.J);
        assertThat(detail()).isEqualTo(new Detail.ApprovalCard(runOf("release-notes-bot")));
    }

    @ParameterizedTest
    @EnumSource(WindowSize.class)
    void aSearchThatHidesTheOpenCardOpensTheFirstRowItShows(WindowSize size, FxRobot robot) {
        String hidden = runOf("release-notes-bot");
        openFirstCard(robot, size);

        robot.press(KeyCode.CONTROL).type(KeyCode.F).release(KeyCode.CONTROL);
        robot.write("web");
        await(() -> detail().equals(new Detail.ApprovalCard(runOf("web-research")))
                && robot.lookup(".verdict-approve").tryQuery().isPresent());
        robot.type(KeyCode.ENTER).type(KeyCode.A).type(KeyCode.ENTER);

        await(() -> webResearchApprovalToastShows(robot));
        assertThat(console.runtime().runs().inbox(console.admin())).extracting(WaitingRun::runId).contains(hidden);
    }

    @ParameterizedTest
    @EnumSource(WindowSize.class)
    void aSearchThatHidesEveryRowShowsNoCardAndEscapeClearsIt(WindowSize size, FxRobot robot) {
        openFirstCard(robot, size);

        robot.press(KeyCode.CONTROL).type(KeyCode.F).release(KeyCode.CONTROL);
        robot.write("nothing matches this");
        await(() -> detail().equals(new Detail.Empty()));
        robot.type(KeyCode.A).type(KeyCode.ENTER).type(KeyCode.ESCAPE);

        assertThat(onFx(() -> robot.lookup(".inbox #search").queryTextInputControl().getText())).isEmpty();
        assertThat(onFx(() -> window.viewModel().inbox().visibleRuns().size())).isEqualTo(3);
        assertThat(console.runtime().runs().inbox(console.admin())).hasSize(3);
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

    private void openFirstCard(FxRobot robot, WindowSize size) {
        size.apply(robot, stage);
        robot.clickOn(".pane-title");
        robot.type(KeyCode.J);
        await(() -> robot.lookup(".verdict-approve").tryQuery().isPresent());
    }

    private String storedReason(String runId) {
        return ((Decision.Approval) console.runtime().store().runs().find(runId).orElseThrow().lastDecision()).verdicts()
                .get(0).reason();
    }

    @ParameterizedTest
    @EnumSource(WindowSize.class)
    void dThenAReasonAndEnterSendsExactlyTheTypedReason(WindowSize size, FxRobot robot) {
        String runId = runOf("release-notes-bot");
        openFirstCard(robot, size);

        robot.type(KeyCode.D).write("Not needed").type(KeyCode.ENTER);

        await(() -> toastSays(robot, "release-notes-bot: 1 call denied. The run completed."));
        assertThat(storedReason(runId)).isEqualTo("Not needed");
    }

    @ParameterizedTest
    @EnumSource(WindowSize.class)
    void aLikeDMovesTheFocusToAnEmptyReason(WindowSize size, FxRobot robot) {
        openFirstCard(robot, size);

        robot.type(KeyCode.A);

        assertThat(onFx(() -> robot.lookup("#reason").query().isFocused())).isTrue();
        assertThat(onFx(() -> robot.lookup("#reason").<ComboBox<String>>query().getEditor().getText())).isEmpty();
        assertThat(submitText(robot)).isEqualTo("Submit: 1 approve");
    }

    @ParameterizedTest
    @EnumSource(WindowSize.class)
    void aQuestionMarkListsEveryKey(WindowSize size, FxRobot robot) {
        openFirstCard(robot, size);

        robot.write("?");

        await(() -> robot.lookup(".keys-sheet").tryQuery().isPresent());
        List<String> keys = onFx(() -> robot.lookup(".key-cap").queryAllAs(Label.class).stream()
                .map(Label::getText).toList());
        assertThat(keys).containsExactly("J", "K", "1–9", "A", "D", "X", "Ctrl+A", "Enter", "Ctrl+F", "Esc",
                "?");
        ScreenshotWriter.write(robot.lookup(".keys-sheet").query().getScene(), "keys-sheet-" + size);
        robot.type(KeyCode.ESCAPE);
        await(() -> robot.lookup(".keys-sheet").tryQuery().isEmpty());
    }

    /** The demo's fetch of example.com fails here without a network, and the toast then says so in between. */
    private static boolean webResearchApprovalToastShows(FxRobot robot) {
        return robot.lookup(".toast-text").queryAllAs(Label.class).stream().map(Label::getText)
                .anyMatch(text -> text.startsWith("web-research: 1 call approved.")
                        && text.endsWith("The run completed."));
    }

    private static boolean toastSays(FxRobot robot, String text) {
        return robot.lookup(".toast-text").queryAllAs(Label.class).stream()
                .anyMatch(label -> label.getText().equals(text));
    }
}
