package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static io.countersign.console.RealConsole.onFx;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.common.Theme;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Arrays;
import java.util.List;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.layout.VBox;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;

/**
 * A run stopped with a call whose outcome is unknown, under the inbox at the smallest window (1024x700), over the
 * real services and a SQLite store: it is listed to settle, and each of its two buttons settles it as the command
 * line's {@code settle} does, the stored run showing which.
 */
class SettleInboxTest extends ConsoleRobotTest {
    private static final String PROMPT = "Compare the changelog, then fetch it";
    private String runId;

    /**
     * A web-research run whose fetch was under way when its process stopped: the store keeps it {@code running}
     * with its card and the call whose outcome nobody knows, as a restart's recovery flags it.
     */
    @BeforeEach
    void aRunWhoseFetchsOutcomeIsUnknown() throws Exception {
        console = RealConsole.withDemo(folder);
        runId = console.runtime().runs().start(console.user("jonas"), "web-research", PROMPT, false).runId();
        try (Connection connection = connection();
             PreparedStatement flag = connection.prepareStatement("UPDATE runs SET status = 'running',"
                     + " outcome_unknown = '[\"call-fetch\"]', failure_reason = 'outcome_unknown',"
                     + " failure_message = 'the process stopped during the call' WHERE id = ?")) {
            flag.setString(1, runId);
            assertThat(flag.executeUpdate()).isOne();
        }
    }

    @Test
    void markFailedEndsTheRunAsTheStoreRecordsIt(FxRobot robot) throws Exception {
        VBox row = openTheInbox(robot, Theme.LIGHT);
        robot.interact(() -> ScreenshotWriter.write(stage.getScene(), "inbox-to-settle-1024x700"));

        robot.clickOn(button(row, ".settle-fail"));

        await(() -> robot.lookup(".to-settle-row").queryAll().isEmpty());
        assertThat(stored()).isEqualTo(List.of("failed", "outcome_unknown", console.admin().name()
                + " marked the run failed: the outcome of call-fetch is unknown after a restart"));
        assertThat(console.runtime().runs().toSettle(console.admin())).isEmpty();
    }

    @Test
    void showCardAgainPutsTheRunBackInTheInbox(FxRobot robot) throws Exception {
        VBox row = openTheInbox(robot, Theme.DARK);
        robot.interact(() -> ScreenshotWriter.write(stage.getScene(), "inbox-to-settle-dark-1024x700"));

        robot.clickOn(button(row, ".settle-retry"));

        await(() -> robot.lookup(".to-settle-row").queryAll().isEmpty());
        await(() -> robot.lookup(".inbox-who").queryAllAs(Label.class).stream()
                .anyMatch(label -> label.getText().contains(PROMPT)));
        assertThat(stored().get(0)).isEqualTo("waiting_for_approval");
    }

    private VBox openTheInbox(FxRobot robot, Theme theme) {
        console.open(robot, stage, console.admin(), theme);
        WindowSize.SMALLEST.apply(robot, stage);
        await(() -> robot.lookup(".to-settle-run").queryAllAs(Label.class).stream()
                .anyMatch(label -> label.isVisible() && label.getText().contains(PROMPT)));
        assertThat(onFx(() -> robot.lookup(".to-settle-title").queryAs(Label.class).getText()))
                .isEqualTo("Outcome unknown · 1 to settle");
        assertThat(onFx(() -> robot.lookup(".inbox-who").queryAllAs(Label.class).stream()
                .noneMatch(label -> label.getText().contains(PROMPT)))).as("not a card to decide").isTrue();
        return robot.lookup(".to-settle-row").queryAs(VBox.class);
    }

    private static Node button(VBox row, String style) {
        return onFx(() -> row.lookup(style));
    }

    private Connection connection() throws Exception {
        return DriverManager.getConnection("jdbc:sqlite:" + folder.resolve("countersign.db"));
    }

    /** The run's stored status, failure reason and message. */
    private List<String> stored() throws Exception {
        try (Connection connection = connection();
             PreparedStatement select = connection.prepareStatement("SELECT status, failure_reason,"
                     + " failure_message FROM runs WHERE id = ?")) {
            select.setString(1, runId);
            try (ResultSet row = select.executeQuery()) {
                assertThat(row.next()).isTrue();
                return Arrays.asList(row.getString(1), row.getString(2), row.getString(3));
            }
        }
    }
}
