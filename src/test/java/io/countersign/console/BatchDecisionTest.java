package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static io.countersign.console.RealConsole.onFx;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.common.Theme;
import io.countersign.engine.Actor;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.port.WaitingRun;
import io.countersign.engine.state.RunStatus;
import io.countersign.runtime.CountersignRuntime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.testfx.api.FxRobot;

/**
 * Many cards at once, driven with real keys and clicks over the real run service: X, Shift-click and Ctrl+A pick
 * cards within the filter, the summary says what will happen per card with identical cards grouped, and the
 * result names the card another process decided meanwhile, which nothing here decided. The summary and the
 * result are photographed in both themes.
 */
class BatchDecisionTest extends ConsoleRobotTest {
    private static final String NOTES = "release-notes-bot";

    /** The demo, two more identical release-notes cards, and the console of an admin who started none of them. */
    private void open(FxRobot robot, Theme theme, int width, int height) {
        console = RealConsole.withDemo(folder);
        Actor maria = console.user("maria");
        console.runtime().runs().start(maria, NOTES, "Tidy the release notes for 2.4", false);
        console.runtime().runs().start(maria, NOTES, "Tidy the release notes for 2.4", false);
        window = console.open(robot, stage, console.admin(), theme);
        robot.interact(() -> {
            stage.setWidth(width);
            stage.setHeight(height);
        });
        await(() -> window.viewModel().inbox().allRuns().size() == 5);
    }

    private List<Node> rows(FxRobot robot, String agent) {
        return onFx(() -> robot.lookup(".inbox-cell").queryAll().stream().filter(cell ->
                ((ListCell<?>) cell).getItem() instanceof WaitingRun run && run.agent().equals(agent)).toList());
    }

    private int pickedCount() {
        return onFx(() -> (int) stage.getScene().getRoot().lookupAll(".inbox-cell").stream()
                .filter(cell -> cell.getPseudoClassStates().stream().anyMatch(state -> state.getPseudoClassName()
                        .equals("picked"))).count());
    }

    private String text(FxRobot robot, String selector) {
        return onFx(() -> robot.lookup(selector).queryAs(Label.class).getText());
    }

    private List<String> lines(FxRobot robot) {
        return onFx(() -> robot.lookup(".batch-line").queryAllAs(Label.class).stream().map(Label::getText).toList());
    }

    /** Waits; a state not reached is photographed, so that the picture shows what the console showed instead. */
    private void awaitOrPhotograph(java.util.concurrent.Callable<Boolean> condition, String name) {
        try {
            await(condition);
        } catch (AssertionError e) {
            ScreenshotWriter.write(window.scene(), name);
            throw new AssertionError(e.getMessage() + "; see " + name + ".png: " + lines(robotOf()), e);
        }
    }

    private FxRobot robotOf() {
        return new FxRobot();
    }

    @Test
    void xShiftClickAndCtrlAPickCardsWithinTheFilterAndKeysDoNotTypeIntoTheReason(FxRobot robot) {
        open(robot, Theme.LIGHT, 1024, 700);
        robot.clickOn(rows(robot, NOTES).get(0));
        robot.type(KeyCode.X);
        await(() -> text(robot, ".batch-count").equals("1 card selected"));
        // Shift-click from the first card to the third: the input form between them is never picked
        robot.press(KeyCode.SHIFT).clickOn(rows(robot, "web-research").get(0)).release(KeyCode.SHIFT);
        await(() -> text(robot, ".batch-count").equals("2 cards selected"));
        // the open card is still the first: X drops it again
        robot.type(KeyCode.X);
        await(() -> text(robot, ".batch-count").equals("1 card selected"));

        robot.clickOn("#clearSelection");
        await(() -> !onFx(() -> robot.lookup("#batchBar").query().isVisible()));
        robot.interact(() -> window.viewModel().inbox().agentProperty().set(NOTES));
        await(() -> window.viewModel().inbox().visibleRuns().size() == 3);
        robot.clickOn(rows(robot, NOTES).get(0));
        robot.press(KeyCode.CONTROL).type(KeyCode.A).release(KeyCode.CONTROL);
        await(() -> text(robot, ".batch-count").equals("3 cards selected"));

        // in the reason field x and d are letters, and Ctrl+A selects its text
        robot.clickOn("#batchReason").write("Needs dx review");
        robot.press(KeyCode.CONTROL).type(KeyCode.A).release(KeyCode.CONTROL);
        assertThat(onFx(() -> robot.lookup("#batchReason").queryAs(TextField.class).getSelectedText()))
                .isEqualTo("Needs dx review");
        assertThat(text(robot, ".batch-count")).isEqualTo("3 cards selected");
        assertThat(window.viewModel().inbox().visibleRuns()).extracting(WaitingRun::status)
                .containsOnly(RunStatus.WAITING_FOR_APPROVAL);
    }

    @ParameterizedTest
    @EnumSource(Theme.class)
    void aBatchDenialSummarisesGroupsAndNamesTheCardDecidedElsewhere(Theme theme, FxRobot robot) throws Exception {
        open(robot, theme, 1280, 800);
        String suffix = "-" + theme.name().toLowerCase(Locale.ROOT);
        robot.clickOn(rows(robot, NOTES).get(0));
        robot.press(KeyCode.CONTROL).type(KeyCode.A).release(KeyCode.CONTROL);
        await(() -> text(robot, ".batch-count").equals("4 cards selected"));
        Path picked = ScreenshotWriter.write(window.scene(), "batch-selected" + suffix);

        robot.clickOn("#denySelected");
        await(() -> onFx(() -> robot.lookup("#batchProblem").query().isVisible()));
        assertThat(text(robot, "#batchProblem")).startsWith("Denying selected cards needs a reason");
        robot.clickOn("#batchReason").write("Release is frozen");
        robot.clickOn("#denySelected");
        awaitOrPhotograph(() -> text(robot, ".batch-title").startsWith("Deny 4 cards") && lines(robot).size() == 3,
                "batch-summary-failed" + suffix);
        assertThat(text(robot, ".batch-title")).isEqualTo("Deny 4 cards (4 calls)?");
        assertThat(lines(robot)).hasSize(3);
        assertThat(lines(robot).get(0)).startsWith("3 \u00d7 release-notes-bot: fs_write file: ")
                .contains("; refused: fs_delete").endsWith("(workspace.boundary)");
        assertThat(lines(robot).get(1)).startsWith("1 \u00d7 web-research: web_fetch");
        assertThat(lines(robot).get(2)).isEqualTo("3 calls rules refused stay refused, whatever you decide.");
        Path summary = ScreenshotWriter.write(window.scene(), "batch-summary" + suffix);

        // meanwhile another process approves the web research card
        WaitingRun research = window.viewModel().inbox().allRuns().stream()
                .filter(run -> run.agent().equals("web-research")).findFirst().orElseThrow();
        CountersignRuntime other = console.otherProcess();
        assertThat(other.runs().decide(console.user("maria"), research.runId(), research.digest(),
                List.of(Decision.CallVerdict.approve(0)))).isInstanceOf(DecisionResult.Done.class);

        robot.clickOn(".batch-confirm");
        awaitOrPhotograph(() -> text(robot, ".batch-title").endsWith("decided") && lines(robot).size() == 4,
                "batch-result-failed" + suffix);
        assertThat(text(robot, ".batch-title")).isEqualTo("3 of 4 cards decided");
        assertThat(lines(robot)).filteredOn(line -> line.contains("release-notes-bot")).hasSize(3)
                .allMatch(line -> line.endsWith(": denied"));
        assertThat(lines(robot)).filteredOn(line -> line.contains("web-research")).singleElement().asString()
                .contains("decided by maria meanwhile; nothing was decided here");
        Path result = ScreenshotWriter.write(window.scene(), "batch-result" + suffix);

        List<StoredRun> notes = console.runtime().store().runs().recent(20).stream()
                .filter(run -> run.agent().equals(NOTES)).map(run -> console.runtime().store().runs()
                        .find(run.runId()).orElseThrow()).toList();
        assertThat(notes).hasSize(3).allSatisfy(run -> {
            assertThat(run.status()).isNotEqualTo(RunStatus.WAITING_FOR_APPROVAL);
            assertThat(run.lastDecision().decidedBy()).isEqualTo(console.admin().name());
            assertThat(((Decision.Approval) run.lastDecision()).verdicts()).extracting(Decision.CallVerdict::reason)
                    .containsOnly("Release is frozen");
        });
        robot.clickOn(".batch-back");
        await(() -> onFx(() -> robot.lookup("#list").query().isVisible()));
        assertThat(Files.size(summary)).isGreaterThan(10_000);
        assertThat(Files.size(result)).isGreaterThan(10_000);
        assertThat(Files.size(picked)).isGreaterThan(10_000);
    }
}
