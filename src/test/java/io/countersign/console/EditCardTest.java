package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static io.countersign.console.RealConsole.onFx;
import static org.assertj.core.api.Assertions.assertThat;

import io.countersign.console.common.Theme;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.port.WaitingRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import javafx.geometry.Orientation;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollBar;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.testfx.api.FxRobot;
import org.testfx.matcher.control.LabeledMatchers;

/** Edit, then approve, on the real card over the real service, at the smallest window, light and dark. */
class EditCardTest extends ConsoleRobotTest {

    private void openReleaseNotes(FxRobot robot, Theme theme) {
        console = RealConsole.withDemo(folder);
        window = console.open(robot, stage, console.admin(), theme);
        WindowSize.SMALLEST.apply(robot, stage);
        await(() -> robot.lookup(".inbox-agent").match(LabeledMatchers.hasText("release-notes-bot")).tryQuery()
                .isPresent());
        robot.clickOn(robot.lookup(".inbox-agent").match(LabeledMatchers.hasText("release-notes-bot"))
                .<Node>query());
        await(() -> robot.lookup(".edit-call").tryQuery().isPresent());
    }

    private static TextField pathField(FxRobot robot) {
        return robot.lookup(".call-edit .text-field").queryAllAs(TextField.class).stream()
                .filter(field -> "path".equals(field.getAccessibleText())).findFirst().orElseThrow();
    }

    /** Scrolls the card so that the node shows, as a person would before clicking it. */
    private static void scrollTo(FxRobot robot, Node node) {
        robot.interact(() -> {
            Node parent = node.getParent();
            while (parent != null && !(parent instanceof ScrollPane)) {
                parent = parent.getParent();
            }
            ScrollPane scroll = (ScrollPane) parent;
            double contentHeight = scroll.getContent().getBoundsInLocal().getHeight();
            double viewport = scroll.getViewportBounds().getHeight();
            double y = scroll.getContent().sceneToLocal(node.localToScene(0, 0)).getY();
            scroll.setVvalue(contentHeight <= viewport ? 0 : Math.min(1, Math.max(0, (y - 40)
                    / (contentHeight - viewport))));
        });
    }

    /** Whether the card's scroll pane shows its horizontal bar: the edit area is wider than the card. */
    private static boolean horizontalScrollShown(FxRobot robot) {
        return onFx(() -> {
            Parent parent = robot.lookup(".call-edit").<Node>query().getParent();
            while (parent != null && !(parent instanceof ScrollPane)) {
                parent = parent.getParent();
            }
            ScrollPane scroll = (ScrollPane) parent;
            return scroll.getChildrenUnmodifiable().stream().anyMatch(node -> node instanceof ScrollBar bar
                    && bar.getOrientation() == Orientation.HORIZONTAL && bar.isVisible());
        });
    }

    private static void typePath(FxRobot robot, String path) {
        scrollTo(robot, pathField(robot));
        robot.clickOn(pathField(robot));
        robot.press(KeyCode.CONTROL).type(KeyCode.A).release(KeyCode.CONTROL);
        robot.write(path);
    }

    private static boolean submitEnabled(FxRobot robot) {
        return onFx(() -> !robot.lookup(".submit").queryButton().isDisabled());
    }

    private WaitingRun waiting() {
        return console.runtime().runs().inbox(console.admin()).stream()
                .filter(run -> run.agent().equals("release-notes-bot")).findFirst().orElseThrow();
    }

    @ParameterizedTest
    @EnumSource(Theme.class)
    void anEditedCallShowsTheDiffAndItsPreviewAndIsApprovedAsEdited(Theme theme, FxRobot robot) throws Exception {
        openReleaseNotes(robot, theme);
        String runId = waiting().runId();

        robot.clickOn(".edit-call");
        await(() -> robot.lookup(".call-edit .text-field").queryAll().size() >= 2);
        robot.clickOn(".verdict-approve");
        typePath(robot, "docs/NOTES.md");
        await(() -> robot.lookup(".call-edit .diff-added").queryAllAs(Label.class).stream()
                .anyMatch(line -> line.getText().contains("docs/NOTES.md")) && submitEnabled(robot));
        assertThat(onFx(() -> robot.lookup(".call-edit .diff-removed").queryAllAs(Label.class).stream()
                .map(Label::getText).toList())).anySatisfy(line -> assertThat(line).contains("\"NOTES.md\""));
        // the preview is of the edited call: a new file under docs
        assertThat(onFx(() -> robot.lookup(".call-edit .diff-line").queryAllAs(Label.class).stream()
                .map(Label::getText).toList())).anySatisfy(line -> assertThat(line).contains("docs/NOTES.md"));
        scrollTo(robot, robot.lookup(".call-edit").query());
        assertThat(horizontalScrollShown(robot)).as("a horizontal scroll bar on the card at 1024 px").isFalse();
        Path shot = ScreenshotWriter.write(window.scene(), "approval-card-edit-1024x700-"
                + theme.name().toLowerCase(Locale.ROOT));
        assertThat(Files.size(shot)).isGreaterThan(10_000);

        robot.clickOn(".submit");
        await(() -> Files.exists(folder.resolve("demo-workspace/release-notes/docs/NOTES.md")));
        Decision.Approval decision = (Decision.Approval) console.runtime().store().runs().find(runId).orElseThrow().lastDecision();
        assertThat(decision.verdicts()).singleElement().satisfies(verdict -> {
            assertThat(verdict.edited()).isTrue();
            assertThat(verdict.arguments().path("path").asText()).isEqualTo("docs/NOTES.md");
        });
        assertThat(Files.readString(folder.resolve("demo-workspace/release-notes/NOTES.md")))
                .doesNotContain("## 2.4");
        // only the path was changed: the content keeps its lines
        assertThat(Files.readString(folder.resolve("demo-workspace/release-notes/docs/NOTES.md")))
                .contains("## 2.4 — faster sync\n\n- Sync");
    }

    @Test
    void anEditARuleRefusesSaysWhyAndKeepsTheCardFromBeingSubmitted(FxRobot robot) {
        openReleaseNotes(robot, Theme.LIGHT);
        robot.clickOn(".edit-call");
        await(() -> robot.lookup(".call-edit .text-field").queryAll().size() >= 2);
        robot.clickOn(".verdict-approve");
        typePath(robot, "../escape.md");
        await(() -> onFx(() -> robot.lookup(".edit-problem").queryAs(Label.class).getText()) != null
                && onFx(() -> robot.lookup(".edit-problem").queryAs(Label.class).getText())
                .contains("workspace.boundary"));
        assertThat(submitEnabled(robot)).isFalse();

        // back to the model's arguments: the card can be submitted again
        scrollTo(robot, robot.lookup(".edit-call").query());
        robot.clickOn(robot.lookup(".edit-call").queryAs(Button.class));
        await(() -> submitEnabled(robot));
        assertThat(console.runtime().store().runs().find(waiting().runId()).orElseThrow().lastDecision()).isNull();
    }
}
