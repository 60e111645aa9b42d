package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static io.countersign.console.RealConsole.onFx;
import static org.assertj.core.api.Assertions.assertThat;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.console.common.Theme;
import io.countersign.engine.state.RunStatus;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import javafx.scene.Node;
import javafx.scene.control.Label;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;

/**
 * A card whose call was rewritten in the SQLite file after it paused, opened in the console at the smallest window
 * (1024x700): the card's banner says it was changed behind Countersign's back and how to end it, the card cannot be
 * sent, and the run still waits with nothing decided.
 */
class TamperedCardTest extends ConsoleRobotTest {
    private static final String PROMPT = "Compare the changelog, then fetch it";
    private String runId;

    @BeforeEach
    void aWebResearchCardWhoseUrlWasRewrittenByHand() throws Exception {
        console = RealConsole.withDemo(folder);
        runId = console.runtime().runs().start(console.user("jonas"), "web-research", PROMPT, false).runId();
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + folder.resolve("countersign.db"))) {
            String state;
            try (PreparedStatement select = connection.prepareStatement("SELECT paused_state FROM runs WHERE id = ?")) {
                select.setString(1, runId);
                try (ResultSet row = select.executeQuery()) {
                    assertThat(row.next()).isTrue();
                    state = row.getString(1);
                }
            }
            ObjectNode tree = (ObjectNode) new ObjectMapper().readTree(state);
            ((ObjectNode) tree.path("calls").get(0).path("call").path("arguments"))
                    .put("url", "https://exfiltrate.example/upload");
            try (PreparedStatement update = connection.prepareStatement(
                    "UPDATE runs SET paused_state = ? WHERE id = ?")) {
                update.setString(1, tree.toString());
                update.setString(2, runId);
                assertThat(update.executeUpdate()).isOne();
            }
        }
    }

    @Test
    void theCardsBannerNamesTheChangeAndTheCardCannotBeSent(FxRobot robot) throws Exception {
        openTheCard(robot, Theme.LIGHT);

        assertThat(onFx(() -> robot.lookup(".banner-text").queryAllAs(Label.class).stream().map(Label::getText)
                .toList())).contains("run " + runId + " cannot be shown or decided: its card was changed behind"
                + " Countersign's back since it paused, and no longer matches the digest recorded then; nothing was"
                + " changed; end it with countersign settle --fail " + runId + ".");
        assertThat(onFx(() -> robot.lookup(".submit").tryQuery().filter(Node::isVisible)
                .map(submit -> submit.isDisabled()).orElse(true))).isTrue();
        assertThat(stored()).isEqualTo(RunStatus.WAITING_FOR_APPROVAL.code() + ", 0 decisions");
    }

    /** The run's stored status and how many decisions it has, read from the file. */
    private String stored() throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + folder.resolve("countersign.db"));
             PreparedStatement select = connection.prepareStatement("SELECT status, (SELECT COUNT(*) FROM decisions"
                     + " WHERE run_id = runs.id) FROM runs WHERE id = ?")) {
            select.setString(1, runId);
            try (ResultSet row = select.executeQuery()) {
                assertThat(row.next()).isTrue();
                return row.getString(1) + ", " + row.getInt(2) + " decisions";
            }
        }
    }

    @Test
    void theBannerInTheDarkTheme(FxRobot robot) {
        openTheCard(robot, Theme.DARK);
        robot.interact(() -> ScreenshotWriter.write(stage.getScene(), "tampered-card-dark-1024x700"));
        assertThat(onFx(() -> robot.lookup(".banner-text").queryAllAs(Label.class).stream().map(Label::getText)
                .anyMatch(text -> text.contains("changed behind Countersign's back")))).isTrue();
    }

    private void openTheCard(FxRobot robot, Theme theme) {
        console.open(robot, stage, console.admin(), theme);
        WindowSize.SMALLEST.apply(robot, stage);
        await(() -> robot.lookup(".inbox-who").queryAllAs(Label.class).stream()
                .anyMatch(label -> label.getText().contains(PROMPT)));
        robot.clickOn(robot.lookup(".inbox-who").queryAllAs(Label.class).stream()
                .filter(label -> label.getText().contains(PROMPT)).findFirst().<Node>orElseThrow());
        await(() -> robot.lookup(".banner-text").queryAllAs(Label.class).stream()
                .anyMatch(label -> label.isVisible() && label.getText().contains("behind Countersign's back")));
        if (theme == Theme.LIGHT) {
            robot.interact(() -> ScreenshotWriter.write(stage.getScene(), "tampered-card-1024x700"));
        }
    }
}
