package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static io.countersign.console.RealConsole.onFx;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.common.Theme;
import io.countersign.console.main.Section;
import io.countersign.console.settings.GatewayProfileRow;
import io.countersign.engine.Actor;
import io.countersign.engine.agent.DeadlineAction;
import io.countersign.engine.chat.TrustZone;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.service.GatewayProfiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import javafx.scene.Node;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableView;
import javafx.scene.control.TitledPane;
import javafx.scene.input.Clipboard;
import javafx.scene.text.Text;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.testfx.api.FxRobot;
import org.testfx.matcher.control.LabeledMatchers;

/** The gateway profiles part of the settings screen over the real service and store, as an admin uses it. */
class GatewayProfileSettingsTest extends ConsoleRobotTest {
    private Actor admin;

    /** The demo with two server records a profile may front; neither is started by the pane. */
    private ConsoleWindow openProfiles(FxRobot robot, Theme theme) {
        console = RealConsole.withDemo(folder);
        admin = console.admin();
        for (String name : List.of("docs", "disk")) {
            console.runtime().store().servers().add(McpServerRecord.stdio(name, "node",
                    List.of("server-filesystem.js", folder.toString())).withEnabled(false), admin);
        }
        ConsoleWindow window = console.open(robot, stage, admin, theme);
        WindowSize.SMALLEST.apply(robot, stage);
        await(() -> window.viewModel().inbox().allRuns().size() == 3);
        ToolSettingsTest.openSection(robot, Section.SETTINGS);
        robot.clickOn(robot.lookup(".gateway-pane > .title").<Node>query());
        await(() -> robot.lookup("#gatewayPane").queryAs(TitledPane.class).isExpanded()
                && robot.lookup(".front-server").queryAll().size() == 2);
        return window;
    }

    @SuppressWarnings("unchecked")
    private static List<GatewayProfileRow> rows(FxRobot robot) {
        return onFx(() -> List.copyOf(robot.lookup("#profileTable").queryAs(TableView.class).getItems()));
    }

    private static String text(FxRobot robot, String selector) {
        return onFx(() -> robot.lookup(selector).queryAs(Label.class).getText());
    }

    private static String field(FxRobot robot, String selector) {
        return onFx(() -> robot.lookup(selector).queryTextInputControl().getText());
    }

    private List<GatewayProfiles.Profile> stored() {
        return console.runtime().gateway().profiles().list(admin);
    }

    private static void front(FxRobot robot, String server) {
        robot.clickOn(robot.lookup(".front-server").match(node -> server.equals(node.getUserData())).<Node>query());
    }

    private static void pick(FxRobot robot, String combo, String item) {
        robot.clickOn(combo);
        robot.clickOn(robot.lookup(".list-cell").match(LabeledMatchers.hasText(item)).<Node>query());
    }

    private static void fillDesk(FxRobot robot, String deadline) {
        robot.clickOn("#profileName").write("desk");
        front(robot, "docs");
        front(robot, "disk");
        pick(robot, "#profileZone", "externalEu");
        robot.clickOn("#profileFourEyes");
        robot.clickOn("#profileDeadline").write(deadline);
        pick(robot, "#profileFallback", "then escalate");
    }

    @Test
    void anAdminAddsAProfileFrontingTwoRecordsAndCopiesTheCommandAHostStarts(FxRobot robot) {
        openProfiles(robot, Theme.LIGHT);
        fillDesk(robot, "30m");
        robot.clickOn("#addProfile");

        await(() -> rows(robot).size() == 1);
        assertThat(stored()).singleElement().satisfies(profile -> {
            assertThat(profile.name()).isEqualTo("desk");
            assertThat(profile.toolGroups()).containsExactly("disk", "docs");
            assertThat(profile.allowedTools()).isEmpty();
            assertThat(profile.trustZone()).isEqualTo("externalEu");
            assertThat(profile.fourEyes()).isTrue();
            assertThat(profile.deadlines().agentRule().span()).isEqualTo(Duration.ofMinutes(30));
            assertThat(profile.deadlines().agentRule().action()).isEqualTo(DeadlineAction.ESCALATE);
        });
        assertThat(rows(robot)).containsExactly(new GatewayProfileRow("desk", "disk, docs", "all of their tools",
                "externalEu", "yes", "30m → escalate"));
        assertThat(text(robot, "#profileStatus")).isEqualTo("Gateway profile desk was saved; a host starts it with:"
                + " countersign gateway --profile desk");
        assertThat(field(robot, "#profileName")).isEmpty();
        assertThat(field(robot, "#hostCommand")).isEqualTo("countersign gateway --profile desk");

        robot.clickOn("#copyCommand");
        assertThat(onFx(() -> Clipboard.getSystemClipboard().getString()))
                .isEqualTo("countersign gateway --profile desk");
    }

    @Test
    void aRefusalIsOneSentenceUnderTheFormAndTheFormKeepsWhatWasTyped(FxRobot robot) {
        openProfiles(robot, Theme.LIGHT);
        fillDesk(robot, "soon");
        robot.clickOn("#addProfile");

        await(() -> !text(robot, "#profileFormError").isEmpty());
        assertThat(text(robot, "#profileFormError")).isEqualTo("The deadline must be a whole number of seconds,"
                + " minutes or hours such as 90s, 30m or 8h, got \"soon\"");
        assertThat(stored()).isEmpty();
        assertThat(field(robot, "#profileName")).isEqualTo("desk");
        assertThat(field(robot, "#profileDeadline")).isEqualTo("soon");
        assertThat(onFx(() -> robot.lookup(".front-server").queryAll().stream()
                .filter(box -> ((CheckBox) box).isSelected()).count())).isEqualTo(2);

        // the service's own refusal: the name is a demo agent's
        robot.doubleClickOn("#profileName").write("web-research");
        robot.doubleClickOn("#profileDeadline").write("2h");
        robot.clickOn("#addProfile");
        await(() -> text(robot, "#profileFormError").startsWith("\"web-research\" is an agent"));
        assertThat(text(robot, "#profileFormError")).isEqualTo("\"web-research\" is an agent with the model \""
                + console.runtime().store().configurations().findAgent("web-research").orElseThrow().modelName()
                + "\"; a gateway profile needs a name of its own");
        assertThat(stored()).isEmpty();
        assertThat(field(robot, "#profileDeadline")).isEqualTo("2h");
    }

    @Test
    void removeAsksFirstThenTakesTheProfileAwayFromTheStore(FxRobot robot) {
        openProfiles(robot, Theme.LIGHT);
        robot.clickOn("#profileName").write("desk");
        front(robot, "docs");
        robot.clickOn("#profileTools").write("fs_read");
        robot.clickOn("#addProfile");
        await(() -> rows(robot).size() == 1);
        assertThat(rows(robot).get(0).tools()).isEqualTo("fs_read");

        robot.clickOn(robot.lookup(".remove-profile").match(node -> "desk".equals(node.getUserData())).<Node>query());
        await(() -> robot.lookup("#confirmRemoveProfile").tryQuery().isPresent());
        robot.clickOn("#confirmRemoveProfile");

        await(() -> rows(robot).isEmpty());
        assertThat(stored()).isEmpty();
        assertThat(text(robot, "#profileStatus")).isEqualTo("Gateway profile desk was removed; the runs it served"
                + " stay in the history.");
        assertThat(field(robot, "#hostCommand")).isEmpty();
        assertThat(onFx(() -> robot.lookup("#copyCommand").query().isDisabled())).isTrue();
    }

    @ParameterizedTest
    @EnumSource(Theme.class)
    void theGatewayProfilesPaneIsPhotographed(Theme theme, FxRobot robot) throws Exception {
        ConsoleWindow window = openProfiles(robot, theme);
        fillDesk(robot, "30m");
        robot.clickOn("#addProfile");
        await(() -> rows(robot).size() == 1);
        robot.clickOn("#profileName").write("Desk two");
        robot.clickOn("#addProfile");
        await(() -> !text(robot, "#profileFormError").isEmpty());
        String suffix = "-" + theme.name().toLowerCase(Locale.ROOT);
        Path shot = ScreenshotWriter.write(window.scene(), "settings-gateway-profiles" + suffix);
        assertThat(Files.size(shot)).isGreaterThan(10_000);
        assertThat(shownZone(robot)).isEqualTo("externalEu");
        assertThat(onFx(() -> zoneRoom(robot))).as("room in the zone column for the longest zone, externalGlobal")
                .isNotNegative();
    }

    /** The zone as the table draws it, cut short with an ellipsis if the column is too narrow for it. */
    private static String shownZone(FxRobot robot) {
        return onFx(() -> ((Text) zoneCell(robot).lookup(".text")).getText());
    }

    /** How much wider the zone column is than the longest zone code needs, in the cell's font and padding. */
    private static double zoneRoom(FxRobot robot) {
        TableCell<?, ?> cell = zoneCell(robot);
        Text longest = new Text(TrustZone.EXTERNAL_GLOBAL.code());
        longest.setFont(cell.getFont());
        double needed = longest.getLayoutBounds().getWidth() + cell.snappedLeftInset() + cell.snappedRightInset();
        return cell.getTableColumn().getWidth() - needed;
    }

    private static TableCell<?, ?> zoneCell(FxRobot robot) {
        return robot.lookup("#profileTable .table-cell").match(node -> node instanceof TableCell<?, ?> cell
                && "externalEu".equals(cell.getItem())).queryAs(TableCell.class);
    }
}
