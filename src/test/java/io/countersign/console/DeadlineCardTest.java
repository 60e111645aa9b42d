package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static io.countersign.console.RealConsole.onFx;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.common.Theme;
import io.countersign.engine.agent.DeadlineAction;
import io.countersign.engine.agent.DeadlineRule;
import io.countersign.engine.agent.DecisionDeadlines;
import io.countersign.engine.agent.RunDeadline;
import io.countersign.store.StoredAgentConfiguration;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;

/**
 * A card's deadline on the real scenes at the smallest window (1024x700), over the real run service and a SQLite
 * store: the time left, amber under a quarter of the span and red under a tenth, and Extend, clicked once.
 */
class DeadlineCardTest extends ConsoleRobotTest {
    private static final String PROMPT = "Compare the changelog before the deadline";
    private String runId;

    @BeforeEach
    void aWebResearchRunWaitsWithAThirtyMinuteDeadline() {
        console = RealConsole.withDemo(folder);
        StoredAgentConfiguration web = console.runtime().store().configurations().findAgent("web-research")
                .orElseThrow();
        console.runtime().store().configurations().saveAgent(new StoredAgentConfiguration(web.name(),
                web.systemPrompt(), web.modelName(), web.toolGroups(), web.allowedTools(), web.workspace(),
                web.toolCallPolicies(), web.maxRounds(), web.fourEyes(), new DecisionDeadlines(
                new DeadlineRule(Duration.ofMinutes(30), DeadlineAction.DENY), Map.of(), null)));
        runId = console.runtime().runs().start(console.user("jonas"), "web-research", PROMPT, false).runId();
    }

    /** As if most of the half hour had passed: the stored deadline is this far from now. */
    private void dueIn(Duration left) throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:"
                + folder.resolve("countersign.db"));
             PreparedStatement update = connection.prepareStatement("UPDATE runs SET deadline = ? WHERE id = ?")) {
            Instant due = Instant.now().plus(left);
            update.setLong(1, due.getEpochSecond() * 1_000_000_000L + due.getNano());
            update.setString(2, runId);
            assertThat(update.executeUpdate()).isEqualTo(1);
        }
    }

    private void openTheCard(FxRobot robot) {
        console.open(robot, stage, console.admin(), Theme.LIGHT);
        WindowSize.SMALLEST.apply(robot, stage);
        await(() -> robot.lookup(".inbox-who").queryAllAs(Label.class).stream()
                .anyMatch(label -> label.getText().contains(PROMPT)));
        robot.clickOn(robot.lookup(".inbox-who").queryAllAs(Label.class).stream()
                .filter(label -> label.getText().contains(PROMPT)).findFirst().<Node>orElseThrow());
        await(() -> robot.lookup(".card-deadline").tryQuery().map(Node::isVisible).orElse(false));
    }

    private static Label deadline(FxRobot robot) {
        return robot.lookup(".card-deadline").queryAs(Label.class);
    }

    @Test
    void theCardShowsTheTimeLeftInAmberAndExtendMovesItOnce(FxRobot robot) throws Exception {
        dueIn(Duration.ofMinutes(5));
        openTheCard(robot);
        assertThat(onFx(() -> deadline(robot).getText())).matches("[45]m \\d\\ds left · then denied");
        assertThat(onFx(() -> deadline(robot).getStyleClass())).contains("deadline-amber")
                .doesNotContain("deadline-red");

        // a picture of the amber time left at the smallest size, beside the other screenshots
        robot.interact(() -> ScreenshotWriter.write(stage.getScene(), "deadline-card-1024x700"));
        Button extend = robot.lookup(".extend-deadline").queryButton();
        assertThat(onFx(extend::isDisabled)).isFalse();
        robot.clickOn(extend);

        await(() -> deadline(robot).getText().contains("extended by " + console.admin().name()));
        assertThat(onFx(() -> deadline(robot).getText())).startsWith("34m ").contains("left · then denied");
        assertThat(onFx(() -> deadline(robot).getStyleClass())).doesNotContain("deadline-amber", "deadline-red");
        assertThat(onFx(extend::isDisabled)).as("a deadline extends only once").isTrue();
        assertThat(onFx(() -> robot.lookup(".banner-text").queryAllAs(Label.class).stream()
                .map(Label::getText).toList())).contains("The deadline moved by 30m; it extends only once.");
        RunDeadline stored = console.runtime().runs().deadline(console.admin(), runId).orElseThrow();
        assertThat(stored.extendedBy()).isEqualTo(console.admin().name());
    }

    @Test
    void choosingDeadlineFirstPutsTheCardNearestItsDeadlineAtTheTop(FxRobot robot) {
        console.open(robot, stage, console.admin(), Theme.LIGHT);
        WindowSize.SMALLEST.apply(robot, stage);
        await(() -> robot.lookup(".inbox-who").queryAllAs(Label.class).stream()
                .anyMatch(label -> label.getText().contains(PROMPT)));
        assertThat(firstRowPrompt(robot)).doesNotContain(PROMPT);

        robot.clickOn(robot.lookup("#sortChoice").<Node>query());
        robot.clickOn("Deadline first");

        await(() -> firstRowPrompt(robot).contains(PROMPT));
    }

    private static String firstRowPrompt(FxRobot robot) {
        return onFx(() -> robot.lookup(".inbox-list").queryListView().getItems().isEmpty() ? ""
                : ((io.countersign.engine.port.WaitingRun) robot.lookup(".inbox-list").queryListView().getItems().get(0))
                .prompt());
    }

    @Test
    void underATenthLeftTheTimeTurnsRed(FxRobot robot) throws Exception {
        dueIn(Duration.ofMinutes(2));
        openTheCard(robot);
        assertThat(onFx(() -> deadline(robot).getStyleClass())).contains("deadline-red");
        assertThat(onFx(() -> deadline(robot).getText())).matches("[12]m \\d\\ds left · then denied");
    }
}
