package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.common.Theme;
import io.countersign.console.main.Section;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import java.util.List;
import java.util.Set;
import javafx.scene.control.ToggleButton;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;

/** The sidebar offers a person only the sections their roles allow, and opens on the first of them. */
class SidebarTest extends ConsoleRobotTest {
    @BeforeEach
    void demo() {
        console = RealConsole.withDemo(folder);
    }

    @Test
    void anOperatorSeesTheInboxFirst(FxRobot robot) {
        ConsoleWindow window = console.open(robot, stage, console.user("maria"), Theme.LIGHT);
        await(() -> window.viewModel().inbox().allRuns().size() == 3);

        assertThat(sidebar(robot)).startsWith(Section.INBOX, Section.RUNS)
                .allMatch(section -> section.visibleTo(console.user("maria")));
        assertThat(window.viewModel().sectionProperty().get()).isEqualTo(Section.INBOX);
    }

    @Test
    void aSupervisorHasNoInboxAndNeverAsksForIt(FxRobot robot) {
        Actor supervisor = new Actor("sam", Set.of(Role.SUPERVISOR));
        ConsoleWindow window = console.open(robot, stage, supervisor, Theme.LIGHT);
        await(() -> robot.lookup(".nav-item").tryQuery().isPresent());
        robot.type(KeyCode.J);

        assertThat(sidebar(robot)).doesNotContain(Section.INBOX).contains(Section.RUNS);
        assertThat(window.viewModel().sectionProperty().get()).isNotEqualTo(Section.INBOX);
        assertThat(console.guard().calls()).doesNotContain("inbox");
    }

    private static List<Section> sidebar(FxRobot robot) {
        return robot.lookup(".nav-item").queryAll().stream()
                .filter(node -> node instanceof ToggleButton && node.getUserData() instanceof Section)
                .map(node -> (Section) node.getUserData()).toList();
    }
}
