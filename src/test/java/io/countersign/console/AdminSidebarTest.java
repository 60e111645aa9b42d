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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.testfx.api.FxRobot;

/** The admin screens are an admin's alone: the sidebar offers them to nobody else, who never loads them. */
class AdminSidebarTest extends ConsoleRobotTest {
    @BeforeEach
    void demo() {
        console = RealConsole.withDemo(folder);
    }

    @ParameterizedTest
    @EnumSource(value = Role.class, names = {"OPERATOR", "SUPERVISOR"})
    void nobodyButAnAdminSeesSettingsOrUsers(Role role, FxRobot robot) {
        console.open(robot, stage, new Actor("kim", Set.of(role)), Theme.LIGHT);
        await(() -> robot.lookup(".nav-item").tryQuery().isPresent());

        assertThat(sidebar(robot)).isNotEmpty().doesNotContain(Section.SETTINGS, Section.RULES, Section.TELEMETRY,
                Section.USERS);
        assertThat(robot.lookup("#toolTable").tryQuery()).isEmpty();
        assertThat(console.guard().calls()).doesNotContain("tools", "preview", "change", "history", "list");
    }

    @Test
    void anAdminSeesBothAtTheEndOfTheSidebar(FxRobot robot) {
        console.open(robot, stage, console.admin(), Theme.LIGHT);
        await(() -> robot.lookup(".nav-item").tryQuery().isPresent());

        assertThat(sidebar(robot)).endsWith(Section.SETTINGS, Section.RULES, Section.TELEMETRY, Section.USERS);
    }

    private static List<Section> sidebar(FxRobot robot) {
        return robot.lookup(".nav-item").queryAll().stream()
                .filter(node -> node instanceof ToggleButton && node.getUserData() instanceof Section)
                .map(node -> (Section) node.getUserData()).toList();
    }
}
