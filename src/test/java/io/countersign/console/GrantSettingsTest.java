package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static io.countersign.console.RealConsole.onFx;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.common.Theme;
import io.countersign.console.main.Section;
import io.countersign.console.settings.GrantRow;
import io.countersign.engine.Actor;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.grant.Grant;
import io.countersign.engine.grant.GrantSpan;
import io.countersign.service.Allowance;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.scene.control.TitledPane;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.testfx.api.FxRobot;

/** The standing grants part of the settings screen over the real grants service and store. */
class GrantSettingsTest extends ConsoleRobotTest {
    /** Maria approves the call jonas's web research waits on, and allows it for eight hours. */
    private Grant makeGrant() {
        Actor maria = console.user("maria");
        String run = console.runtime().runs().start(console.user("jonas"), "web-research", "Check the changelog",
                false).runId();
        String digest = console.runtime().runs().card(maria, run).orElseThrow().digest();
        console.runtime().runs().decide(maria, run, digest, List.of(Decision.CallVerdict.approve(0)),
                Allowance.sameArguments(GrantSpan.EIGHT_HOURS));
        List<Grant> made = console.runtime().store().grants().list(java.time.Instant.now());
        assertThat(made).as("the grant maria made").hasSize(1);
        return made.get(0);
    }

    private ConsoleWindow openGrants(FxRobot robot, Actor actor, Theme theme, WindowSize size) {
        ConsoleWindow window = console.open(robot, stage, actor, theme);
        size.apply(robot, stage);
        await(() -> !window.viewModel().inbox().allRuns().isEmpty());
        ToolSettingsTest.openSection(robot, Section.SETTINGS);
        robot.clickOn(robot.lookup(".grants-pane > .title").<Node>query());
        await(() -> robot.lookup("#grantsPane").queryAs(TitledPane.class).isExpanded()
                && robot.lookup("#revokeGrant").query().isVisible());
        return window;
    }

    @SuppressWarnings("unchecked")
    private static List<GrantRow> rows(FxRobot robot) {
        return onFx(() -> List.copyOf(robot.lookup("#grantTable").queryAs(TableView.class).getItems()));
    }

    private static String text(FxRobot robot, String selector) {
        return onFx(() -> robot.lookup(selector).queryAs(Label.class).getText());
    }

    private static Node switchOf(FxRobot robot, String agent) {
        return robot.lookup(".grants-off").match(node -> agent.equals(node.getUserData())).query();
    }

    @Test
    void anAdminSeesTheGrantRevokesItWithTheKeyboardAndSwitchesAnAgentsGrantsOff(FxRobot robot) {
        console = RealConsole.withDemo(folder);
        openGrants(robot, console.admin(), Theme.LIGHT, WindowSize.SMALLEST);
        assertThat(rows(robot)).isEmpty();
        // the open pane follows the runs' changes: the decision that makes the grant shows it
        Grant grant = makeGrant();
        await(() -> rows(robot).size() == 1);
        GrantRow row = rows(robot).get(0);
        assertThat(row.id()).isEqualTo(grant.id());
        assertThat(row.agent()).isEqualTo("web-research");
        assertThat(row.tool()).isEqualTo(grant.tool());
        assertThat(row.grantedBy()).isEqualTo("maria");
        assertThat(row.uses()).isZero();
        assertThat(row.scope()).startsWith("arguments: ");
        assertThat(row.state()).isEqualTo("live");
        assertThat(onFx(() -> robot.lookup("#revokeGrant").queryAs(Button.class).isDisabled())).isTrue();

        // the row is picked with the mouse; Revoke is reached with Tab and pressed with Space
        robot.clickOn(robot.lookup("#grantTable .table-row-cell").<Node>query());
        await(() -> !robot.lookup("#revokeGrant").queryAs(Button.class).isDisabled());
        robot.interact(() -> robot.lookup("#revokeGrant").query().requestFocus());
        robot.type(KeyCode.SPACE);
        await(() -> rows(robot).isEmpty());
        assertThat(console.runtime().store().grants().find(grant.id())).get().satisfies(stored -> {
            assertThat(stored.revokedBy()).isEqualTo(console.admin().name());
            assertThat(stored.revokedAt()).isNotNull();
        });
        assertThat(text(robot, "#grantStatus")).isEqualTo("Grant " + grant.id() + " (web-research, " + grant.tool()
                + ") was revoked; its calls pause again.");

        robot.clickOn(switchOf(robot, "web-research"));
        await(() -> console.runtime().store().grants().switchedOff("web-research"));
        await(() -> text(robot, "#grantStatus").equals("The grants of web-research are switched off: its calls"
                + " pause whatever grants exist."));
        assertThat(onFx(() -> ((CheckBox) switchOf(robot, "web-research")).isSelected())).isTrue();
        assertThat(console.runtime().store().grants().switchedOffAgents()).containsExactly("web-research");

        robot.clickOn(switchOf(robot, "web-research"));
        await(() -> !console.runtime().store().grants().switchedOff("web-research"));
    }

    @Test
    void aGrantItsMakerRevokedMeanwhileIsRefusedWithTheServicesReason(FxRobot robot) {
        console = RealConsole.withDemo(folder);
        Grant grant = makeGrant();
        openGrants(robot, console.admin(), Theme.LIGHT, WindowSize.AS_OPENED);
        await(() -> rows(robot).size() == 1);
        robot.clickOn(robot.lookup("#grantTable .table-row-cell").<Node>query());
        // maria revokes her grant from the command line while the admin's screen still lists it
        console.runtime().grants().orElseThrow().revoke(console.user("maria"), grant.id());
        robot.clickOn("#revokeGrant");
        await(() -> !text(robot, "#grantProblem").isEmpty());
        assertThat(text(robot, "#grantProblem")).startsWith("Grant " + grant.id() + " could not be revoked: ")
                .contains(grant.id());
        await(() -> rows(robot).isEmpty());
        assertThat(console.runtime().store().grants().find(grant.id()).orElseThrow().revokedBy()).isEqualTo("maria");
    }

    @ParameterizedTest
    @EnumSource(Theme.class)
    void theGrantsPaneIsPhotographed(Theme theme, FxRobot robot) throws Exception {
        console = RealConsole.withDemo(folder);
        makeGrant();
        ConsoleWindow window = openGrants(robot, console.admin(), theme, WindowSize.SMALLEST);
        await(() -> rows(robot).size() == 1);
        robot.clickOn(robot.lookup("#grantTable .table-row-cell").<Node>query());
        String suffix = "-" + theme.name().toLowerCase(Locale.ROOT);
        Path shot = ScreenshotWriter.write(window.scene(), "settings-grants-1024x700" + suffix);
        assertThat(Files.size(shot)).isGreaterThan(10_000);
    }
}
