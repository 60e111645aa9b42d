package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static io.countersign.console.RealConsole.onFx;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.common.Theme;
import io.countersign.console.main.Section;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.store.StoreLocation;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.ToggleButton;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;

/**
 * The denial browser's audit line over the demo's SQLite store: a supervisor who clicks their way to the browser
 * reads "Audit verified up to …"; after a row was changed behind the store's back, the line names it.
 */
class AuditStatusTest extends ConsoleRobotTest {

    private String openDenialsAs(FxRobot robot, Actor actor) {
        window = console.open(robot, stage, actor, Theme.LIGHT);
        await(() -> robot.lookup(".nav-item").tryQuery().isPresent());
        robot.clickOn(onFx(() -> robot.lookup(".nav-item").queryAll().stream()
                .filter(node -> node instanceof ToggleButton && node.getUserData() == Section.DENIALS)
                .findFirst().orElseThrow()));
        await(() -> robot.lookup("#auditStatus").tryQuery().isPresent() && !onFx(() -> text(robot))
                .startsWith("Verifying"));
        return onFx(() -> text(robot));
    }

    private static String text(FxRobot robot) {
        Node label = robot.lookup("#auditStatus").query();
        return label.isVisible() ? ((Label) label).getText() : "";
    }

    @Test
    void aSupervisorReadsThatTheAuditVerified(FxRobot robot) {
        console = RealConsole.withDemo(folder);

        String line = openDenialsAs(robot, Actor.of("sam", Role.SUPERVISOR));

        assertThat(line).matches("Audit verified up to \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d \\(entry \\d+\\)");
    }

    @Test
    void aChangedEventIsNamedOnTheLine(FxRobot robot) throws Exception {
        console = RealConsole.withDemo(folder);
        StoreLocation.SqliteFile file = (StoreLocation.SqliteFile) console.runtime().store().location();
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file.file());
             Statement statement = connection.createStatement()) {
            statement.executeUpdate("UPDATE governance_events SET actor = 'mallory' WHERE tool_name = 'fs_delete'");
        }

        String line = openDenialsAs(robot, console.admin());

        assertThat(line).startsWith("Audit chain broken: event ").contains(") was changed: its stored values");
    }
}
