package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static io.countersign.console.RealConsole.onFx;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.state.RunStatus;
import javafx.scene.Node;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Label;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.matcher.control.LabeledMatchers;

/**
 * An approval or denial is held for Undo before it is sent, through real keys and clicks over the real store:
 * taken back, nothing is stored and the card returns as it was; sent, it is stored once; a window closed while
 * it is held sends it.
 */
class UndoTest extends ConsoleRobotTest {
    private String openReleaseNotes(FxRobot robot) {
        openDemo(robot, WindowSize.AS_OPENED);
        await(() -> window.viewModel().inbox().allRuns().size() == 3);
        robot.clickOn(robot.lookup(".inbox-agent").match(LabeledMatchers.hasText("release-notes-bot")).<Node>query());
        await(() -> robot.lookup(".verdict-approve").tryQuery().isPresent());
        return onFx(() -> window.viewModel().inbox().selectedProperty().get().runId());
    }

    private StoredRun stored(String runId) {
        return console.runtime().store().runs().find(runId).orElseThrow();
    }

    private static boolean toastSays(FxRobot robot, String text) {
        return robot.lookup(".toast-text").queryAllAs(Label.class).stream()
                .anyMatch(label -> label.getText().equals(text));
    }

    @Test
    void anUndoneApprovalSendsNothingAndTheCardReturnsWithItsVerdict(FxRobot robot) {
        String runId = openReleaseNotes(robot);

        robot.clickOn(".card-title").type(KeyCode.A).type(KeyCode.ENTER);
        await(() -> toastSays(robot, "Approving 1 call of release-notes-bot in 5 s."));
        // the card left at once and the next opened; nothing is stored yet
        assertThat(onFx(() -> window.viewModel().inbox().allRuns().stream()
                .noneMatch(run -> run.runId().equals(runId)))).isTrue();
        assertThat(stored(runId).status()).isEqualTo(RunStatus.WAITING_FOR_APPROVAL);
        robot.clickOn(robot.lookup(".toast-link").match(LabeledMatchers.hasText("Undo")).<Hyperlink>query());

        await(() -> robot.lookup(".submit").tryQuery().isPresent()
                && robot.lookup(".submit").queryButton().getText().equals("Submit: 1 approve"));
        assertThat(onFx(() -> window.viewModel().inbox().selectedProperty().get().runId())).isEqualTo(runId);
        assertThat(onFx(() -> robot.lookup(".toast-text").queryAll())).isEmpty();
        // well past the undo time, still nothing is stored
        robot.sleep(ConsoleWindow.UNDO_TIME.toMillis() + 1_000);
        assertThat(stored(runId).status()).isEqualTo(RunStatus.WAITING_FOR_APPROVAL);
        assertThat(stored(runId).lastDecision()).isNull();

        robot.type(KeyCode.ENTER);

        await(() -> toastSays(robot, "release-notes-bot: 1 call approved. The run completed."));
        StoredRun decided = stored(runId);
        assertThat(decided.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(decided.lastDecision().decidedBy()).isEqualTo(console.admin().name());
        assertThat(((Decision.Approval) decided.lastDecision()).verdicts()).singleElement().satisfies(verdict ->
                assertThat(verdict.approved()).isTrue());
    }

    @Test
    void aWindowClosedWhileADenialIsHeldSendsIt(FxRobot robot) {
        String runId = openReleaseNotes(robot);

        robot.clickOn(".card-title").type(KeyCode.D).type(KeyCode.ENTER);
        await(() -> toastSays(robot, "Denying 1 call of release-notes-bot in 5 s."));
        assertThat(stored(runId).lastDecision()).isNull();
        robot.interact(window::close);

        await(() -> stored(runId).lastDecision() != null);
        assertThat(((Decision.Approval) stored(runId).lastDecision()).verdicts()).singleElement().satisfies(verdict ->
                assertThat(verdict.approved()).isFalse());
    }
}
