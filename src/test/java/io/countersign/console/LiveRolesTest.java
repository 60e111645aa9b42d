package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static io.countersign.console.RealConsole.onFx;
import static org.assertj.core.api.Assertions.assertThat;

import io.countersign.console.common.Theme;
import io.countersign.console.main.Section;
import io.countersign.engine.Role;
import io.countersign.runtime.CountersignRuntime;
import java.util.List;
import java.util.Set;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ToggleButton;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;

/**
 * An admin changes an open console's person's roles from another process on the same store: the sidebar, the
 * roles under the name and New run follow without a restart, and a toast says why.
 */
class LiveRolesTest extends ConsoleRobotTest {
    @BeforeEach
    void demo() {
        console = RealConsole.withDemo(folder);
    }

    @Test
    void theSidebarFollowsRolesChangedInAnotherProcess(FxRobot robot) {
        console.open(robot, stage, console.user("maria"), Theme.LIGHT);
        await(() -> sidebar(robot).contains(Section.INBOX));
        CountersignRuntime admin = console.otherProcess();

        admin.users().setRoles(admin.localUser(), "maria", Set.of(Role.SUPERVISOR));
        await(() -> !sidebar(robot).contains(Section.INBOX));
        assertThat(sidebar(robot)).containsExactly(Section.RUNS, Section.DENIALS, Section.INSIGHTS);
        await(() -> toastSays(robot, "An admin changed your roles: now supervisor. The sidebar shows what you may"
                + " use."));
        assertThat(onFx(() -> robot.lookup("#userRoles").queryAs(Label.class).getText())).isEqualTo("supervisor");
        assertThat(onFx(() -> robot.lookup("#newRunButton").queryAs(Button.class).isDisabled())).isTrue();

        robot.clickOn(entry(robot, Section.DENIALS));
        await(() -> robot.lookup("#exportButton").tryQuery().isPresent());

        admin.users().setRoles(admin.localUser(), "maria", Set.of(Role.OPERATOR));
        await(() -> sidebar(robot).equals(List.of(Section.INBOX, Section.RUNS)));
        await(() -> toastSays(robot, "An admin changed your roles: now operator. The sidebar shows what you may"
                + " use."));
        assertThat(onFx(() -> robot.lookup("#newRunButton").queryAs(Button.class).isDisabled())).isFalse();
        robot.clickOn(entry(robot, Section.INBOX));
        await(() -> onFx(() -> entry(robot, Section.INBOX).isSelected()));
    }

    private static List<Section> sidebar(FxRobot robot) {
        return onFx(() -> robot.lookup(".nav-item").queryAll().stream()
                .filter(node -> node instanceof ToggleButton && node.getUserData() instanceof Section)
                .map(node -> (Section) node.getUserData()).toList());
    }

    private static ToggleButton entry(FxRobot robot, Section section) {
        return onFx(() -> robot.lookup(".nav-item").queryAll().stream()
                .filter(node -> node instanceof ToggleButton && node.getUserData() == section)
                .map(ToggleButton.class::cast).findFirst().orElseThrow());
    }

    private static boolean toastSays(FxRobot robot, String text) {
        return onFx(() -> robot.lookup(".toast-text").queryAllAs(Label.class).stream()
                .anyMatch(label -> label.getText().equals(text)));
    }
}
