package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static io.countersign.console.RealConsole.onFx;
import static org.assertj.core.api.Assertions.assertThat;
import atlantafx.base.controls.ToggleSwitch;
import io.countersign.console.common.Theme;
import io.countersign.console.main.Section;
import io.countersign.console.settings.HistoryItem;
import io.countersign.console.settings.ToolRow;
import io.countersign.engine.Actor;
import io.countersign.engine.state.RunStatus;
import io.countersign.service.ToolSettingView;
import java.util.List;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.matcher.control.LabeledMatchers;

/** The tool settings screen over the real settings service and store, as an admin uses it. */
class ToolSettingsTest extends ConsoleRobotTest {
    private Actor admin;

    @BeforeEach
    void open(FxRobot robot) {
        console = RealConsole.withDemo(folder);
        AdminTestTools.registerRemote(console.runtime().registry());
        AdminTestTools.registerConfigurableForm(console.runtime().registry());
        admin = console.admin();
        window = console.open(robot, stage, admin, Theme.LIGHT);
        await(() -> window.viewModel().inbox().allRuns().size() == 3);
        openSettings(robot);
    }

    static void openSection(FxRobot robot, Section section) {
        robot.clickOn(robot.lookup(".nav-item").match(node -> node.getUserData() == section).<Node>query());
    }

    private void openSettings(FxRobot robot) {
        openSection(robot, Section.SETTINGS);
        int tools = console.runtime().registry().names().size();
        await(() -> robot.lookup("#toolTable").queryAs(TableView.class).getItems().size() == tools);
    }

    /** The switch of a tool, scrolled into view. */
    static ToggleSwitch toggle(FxRobot robot, String styleClass, String tool) {
        robot.interact(() -> {
            TableView<ToolRow> table = robot.lookup("#toolTable").queryAs(TableView.class);
            table.scrollTo(table.getItems().stream().filter(row -> row.saved().name().equals(tool))
                    .findFirst().orElseThrow());
        });
        return onFx(() -> robot.lookup("." + styleClass).queryAllAs(ToggleSwitch.class).stream()
                .filter(toggle -> tool.equals(toggle.getUserData())).findFirst().orElseThrow());
    }

    private static List<String> texts(FxRobot robot, String selector) {
        return onFx(() -> robot.lookup(selector).queryAllAs(Label.class).stream().filter(Node::isVisible)
                .map(Label::getText).toList());
    }

    private static HistoryItem newestChange(FxRobot robot) {
        return onFx(() -> robot.lookup("#historyTable").<TableView<HistoryItem>>query().getItems().get(0));
    }

    private ToolSettingView stored(String tool) {
        return console.runtime().settings().tools(admin).stream().filter(view -> view.name().equals(tool))
                .findFirst().orElseThrow();
    }

    private boolean previewOpen(FxRobot robot) {
        return robot.lookup("#previewPane").query().isVisible();
    }

    @Test
    void aSwitchOpensThePreviewAndSavesNothing(FxRobot robot) {
        robot.clickOn(toggle(robot, "approval-switch", "web_fetch"));

        await(() -> !texts(robot, ".preview-effect").isEmpty());
        assertThat(previewOpen(robot)).isTrue();
        assertThat(texts(robot, ".preview-pending")).containsExactly("web_fetch no longer needs approval");
        assertThat(texts(robot, ".preview-effect")).first().asString()
                .isEqualTo("web_fetch joins the unattended set: it runs with nobody asked.");
        // the demo's recorded calls are the unattended audit's, which ran anyway
        assertThat(texts(robot, ".preview-effect").get(1))
                .isEqualTo("None of the last 2 recorded calls would have gone differently.");
        assertThat(stored("web_fetch").approvalBound()).isTrue();
    }

    @Test
    void savingRecordsTheChangeWithWhoAndWhenInTheHistory(FxRobot robot) {
        robot.clickOn(toggle(robot, "approval-switch", "web_fetch"));
        await(() -> !robot.lookup("#save").query().isDisabled());

        robot.clickOn("#save");

        await(() -> !previewOpen(robot) && newestChange(robot).setting().equals("web_fetch · approval"));
        HistoryItem newest = newestChange(robot);
        assertThat(List.of(newest.who(), newest.change())).containsExactly(admin.name(), "default → no approval");
        assertThat(newest.when()).isNotBlank();
        assertThat(texts(robot, ".settings-status")).containsExactly("Saved 1 change.");
        assertThat(stored("web_fetch").approvalBound()).isFalse();
        assertThat(stored("web_fetch").runsUnattended()).isTrue();
    }

    @Test
    void aRunOfTheToolWaitsBeforeTheChangeAndRunsUnattendedAfterIt(FxRobot robot) {
        startWebResearch(robot);
        await(() -> toastSays(robot, "Started web-research. It waits for approval."));
        await(() -> window.viewModel().inbox().allRuns().size() == 4);

        robot.clickOn(toggle(robot, "approval-switch", "web_fetch"));
        await(() -> !robot.lookup("#save").query().isDisabled());
        robot.clickOn("#save");
        await(() -> !previewOpen(robot) && texts(robot, ".settings-status").contains("Saved 1 change."));
        startWebResearch(robot);

        await(() -> toastSays(robot, "Started web-research. The run completed."));
        assertThat(window.viewModel().inbox().allRuns()).hasSize(4);
    }

    @Test
    void thePreviewCountsTheRecentCallsThatWouldHavePaused(FxRobot robot) {
        robot.clickOn(toggle(robot, "approval-switch", "web_fetch"));
        await(() -> !robot.lookup("#save").query().isDisabled());
        robot.clickOn("#save");
        await(() -> !previewOpen(robot) && texts(robot, ".settings-status").contains("Saved 1 change."));
        // a web_fetch call that runs unattended joins the recorded calls
        assertThat(console.service().start(admin, "web-research", "Compare the changelog", false).status())
                .isEqualTo(RunStatus.COMPLETED);

        robot.clickOn(toggle(robot, "approval-switch", "web_fetch"));

        await(() -> texts(robot, ".preview-effect").size() == 2);
        assertThat(texts(robot, ".preview-effect")).containsExactly(
                "web_fetch leaves the unattended set.",
                "Of the last 3 recorded calls, 2 would have run without a pause (now 3) and 1 would have paused"
                        + " (now 0).");
    }

    private void startWebResearch(FxRobot robot) {
        robot.clickOn("#newRunButton");
        await(() -> robot.lookup(".new-run").tryQuery().isPresent() && robot.lookup("#agent").query().isVisible());
        robot.clickOn("#agent");
        robot.clickOn(robot.lookup(".list-cell").match(LabeledMatchers.hasText("web-research")).<Node>query());
        robot.clickOn("#prompt").write("Compare the changelog of 2.4");
        robot.clickOn("#start");
    }

    private static boolean toastSays(FxRobot robot, String text) {
        return robot.lookup(".toast-text").queryAllAs(Label.class).stream()
                .anyMatch(toast -> toast.getText().equals(text));
    }

    @Test
    void discardPutsTheSwitchesBack(FxRobot robot) {
        robot.clickOn(toggle(robot, "enabled-switch", "fs_list"));
        await(() -> previewOpen(robot) && !texts(robot, ".preview-effect").isEmpty());
        assertThat(texts(robot, ".preview-pending"))
                .containsExactly("fs_list is switched off: it is no longer offered to any agent");
        assertThat(texts(robot, ".preview-effect")).containsExactly(
                "fs_list leaves the unattended set.",
                "Of the last 2 recorded calls, 1 would have run without a pause (now 2), 0 would have paused"
                        + " (now 0) and 1 would have been refused as disabled (now 0).");

        robot.clickOn("#discard");

        await(() -> !previewOpen(robot));
        assertThat(toggle(robot, "enabled-switch", "fs_list").isSelected()).isTrue();
        assertThat(stored("fs_list").enabled()).isTrue();
    }

    @Test
    void aChangeNotSavedSurvivesLeavingTheScreen(FxRobot robot) {
        robot.clickOn(toggle(robot, "approval-switch", "web_fetch"));
        await(() -> !robot.lookup("#save").query().isDisabled());

        openSection(robot, Section.USERS);
        await(() -> robot.lookup("#userTable").tryQuery().isPresent());
        openSection(robot, Section.SETTINGS);

        await(() -> robot.lookup("#toolTable").query().isVisible());
        assertThat(previewOpen(robot)).isTrue();
        assertThat(texts(robot, ".preview-pending")).containsExactly("web_fetch no longer needs approval");
        assertThat(toggle(robot, "approval-switch", "web_fetch").isSelected()).isFalse();
    }

    @Test
    void theInboxShortcutsRestWhileTheScreenIsOpen(FxRobot robot) {
        robot.clickOn(toggle(robot, "enabled-switch", "fs_read"));
        robot.clickOn("#discard");

        robot.type(KeyCode.J).type(KeyCode.A).type(KeyCode.ENTER);

        assertThat(window.viewModel().sectionProperty().get()).isEqualTo(Section.SETTINGS);
        assertThat(console.guard().calls()).doesNotContain("decide");
    }

    @Test
    void aFixedToolShowsWhyItsApprovalCannotChange(FxRobot robot) {
        assertThat(toggle(robot, "approval-switch", "fs_write").isDisabled()).isTrue();
        assertThat(toggle(robot, "approval-switch", "fs_write").isSelected()).isTrue();
        // read while fs_write's row is in view: the table makes cells for the rows in view only
        assertThat(texts(robot, ".switch-note")).contains("Write tool: always needs approval");
        assertThat(toggle(robot, "approval-switch", "web_fetch").isDisabled()).isFalse();
        assertThat(texts(robot, ".switch-note")).contains("Read-only tool: runs without approval");
    }

    @Test
    void aRefusedChangeShowsTheServiceReasonAndCannotBeSaved(FxRobot robot) {
        robot.clickOn(toggle(robot, "approval-switch", AdminTestTools.CONFIGURABLE_FORM));

        await(() -> !texts(robot, ".preview-refusal").isEmpty());
        assertThat(texts(robot, ".preview-refusal")).containsExactly(AdminTestTools.CONFIGURABLE_FORM
                + " asks for typed input, so it cannot also need approval: a turn cannot wait for both");
        assertThat(robot.lookup("#save").query().isDisabled()).isTrue();
        assertThat(stored(AdminTestTools.CONFIGURABLE_FORM).approvalBound()).isFalse();
    }

    @Test
    void anUndeclaredServerShowsAnAmberBadgeSayingItsToolsRunWithoutApproval(FxRobot robot) {
        // The server's tools come after the local ones: scrolled to, as a person would.
        robot.interact(() -> {
            TableView<?> table = robot.lookup("#toolTable").queryAs(TableView.class);
            table.scrollTo(table.getItems().size() - 1);
        });
        List<Label> badges = onFx(() -> robot.lookup(".badge-undeclared").queryAllAs(Label.class).stream()
                .filter(Node::isVisible).toList());

        assertThat(badges).hasSize(2).allSatisfy(badge -> {
            assertThat(badge.getText()).isEqualTo("not declared");
            assertThat(badge.getTooltip().getText()).isEqualTo("not declared: runs without approval");
        });
        assertThat(texts(robot, ".switch-note")).contains("runs without approval (server " + AdminTestTools.SERVER
                + ")");
        assertThat(toggle(robot, "approval-switch", AdminTestTools.REMOTE_SEARCH).isSelected()).isFalse();
        assertThat(stored(AdminTestTools.REMOTE_SEARCH).runsUnattended()).isTrue();
    }

    /** Declares the server through the link under a tool's switch, as a person would. */
    private void declareServer(FxRobot robot, String tool, boolean approvalBound) {
        toggle(robot, "approval-switch", tool);
        robot.clickOn(onFx(() -> robot.lookup(".follow-server").queryAllAs(javafx.scene.control.Hyperlink.class)
                .stream().filter(Node::isVisible).filter(link -> link.getText().equals("Declare server…"))
                .findFirst().orElseThrow()));
        robot.clickOn((approvalBound ? "Every tool of " : "No tool of ") + AdminTestTools.SERVER
                + " needs approval (except those declared by themselves)");
    }

    @Test
    void declaringAnUndeclaredServerApprovalBoundSwitchesEveryToolOfTheServer(FxRobot robot) {
        declareServer(robot, AdminTestTools.REMOTE_SEARCH, true);

        await(() -> toggle(robot, "approval-switch", AdminTestTools.REMOTE_FETCH).isSelected()
                && !robot.lookup("#save").query().isDisabled());
        assertThat(texts(robot, ".preview-pending")).containsExactly("The server " + AdminTestTools.SERVER
                + " is declared approval-bound: its tools need approval");
        assertThat(texts(robot, ".preview-effect").get(0)).isEqualTo(AdminTestTools.REMOTE_FETCH + ", "
                + AdminTestTools.REMOTE_SEARCH + " leave the unattended set.");
        robot.clickOn("#save");
        await(() -> !previewOpen(robot) && texts(robot, ".settings-status").contains("Saved 1 change.")
                && newestChange(robot).setting().equals("server " + AdminTestTools.SERVER + " · approval"));
        assertThat(newestChange(robot).change()).isEqualTo("not declared → needs approval");
        assertThat(stored(AdminTestTools.REMOTE_SEARCH).approvalBound()).isTrue();
        assertThat(stored(AdminTestTools.REMOTE_FETCH).approvalBound()).isTrue();
        await(() -> robot.lookup(".badge-undeclared").queryAll().stream().noneMatch(Node::isVisible));
    }

    @Test
    void aDeclaredServerDeclaredFreeAgainSwitchesEveryToolOfTheServer(FxRobot robot) {
        declareServer(robot, AdminTestTools.REMOTE_SEARCH, true);
        await(() -> !robot.lookup("#save").query().isDisabled());
        robot.clickOn("#save");
        await(() -> !previewOpen(robot) && texts(robot, ".settings-status").contains("Saved 1 change."));
        await(() -> texts(robot, ".switch-note").contains("from server " + AdminTestTools.SERVER + " by "
                + admin.name()));

        declareServer(robot, AdminTestTools.REMOTE_FETCH, false);

        await(() -> !toggle(robot, "approval-switch", AdminTestTools.REMOTE_SEARCH).isSelected()
                && !robot.lookup("#save").query().isDisabled());
        assertThat(texts(robot, ".preview-pending")).containsExactly(
                "The tools of the server " + AdminTestTools.SERVER + " no longer need approval");
        assertThat(texts(robot, ".preview-effect").get(0)).isEqualTo(AdminTestTools.REMOTE_FETCH + ", "
                + AdminTestTools.REMOTE_SEARCH + " join the unattended set: they run with nobody asked.");
        robot.clickOn("#save");
        await(() -> !previewOpen(robot) && newestChange(robot).change().equals("needs approval → no approval"));
        assertThat(stored(AdminTestTools.REMOTE_SEARCH).approvalBound()).isFalse();
        assertThat(stored(AdminTestTools.REMOTE_SEARCH).serverDeclaration())
                .isEqualTo(io.countersign.engine.tool.ApprovalDeclaration.NOT_APPROVAL_BOUND);
    }

    @Test
    void switchingOneRemoteToolDeclaresItAloneAndItCanFollowItsServerAgain(FxRobot robot) {
        robot.clickOn(toggle(robot, "approval-switch", AdminTestTools.REMOTE_FETCH));

        await(() -> !robot.lookup("#save").query().isDisabled());
        assertThat(toggle(robot, "approval-switch", AdminTestTools.REMOTE_SEARCH).isSelected())
                .as("the server's other tool is left alone").isFalse();
        assertThat(texts(robot, ".preview-pending")).containsExactly(AdminTestTools.REMOTE_FETCH
                + " is declared approval-bound by itself: it needs approval, whatever its server’s declaration");
        assertThat(texts(robot, ".preview-effect").get(0)).isEqualTo(AdminTestTools.REMOTE_FETCH
                + " leaves the unattended set.");
        robot.clickOn("#save");
        await(() -> !previewOpen(robot) && texts(robot, ".settings-status").contains("Saved 1 change."));
        assertThat(newestChange(robot).setting()).isEqualTo(AdminTestTools.REMOTE_FETCH + " · its own declaration");
        assertThat(stored(AdminTestTools.REMOTE_FETCH).approvalBound()).isTrue();
        assertThat(stored(AdminTestTools.REMOTE_SEARCH).approvalBound()).isFalse();
        await(() -> texts(robot, ".switch-note").contains("declared for this tool by " + admin.name()));

        toggle(robot, "approval-switch", AdminTestTools.REMOTE_FETCH);
        robot.clickOn(onFx(() -> robot.lookup(".follow-server").queryAllAs(javafx.scene.control.Hyperlink.class)
                .stream().filter(Node::isVisible).filter(link -> link.getText().equals("Follow server"))
                .findFirst().orElseThrow()));

        await(() -> !robot.lookup("#save").query().isDisabled());
        assertThat(texts(robot, ".preview-pending")).containsExactly(AdminTestTools.REMOTE_FETCH
                + " follows its server’s declaration again");
        robot.clickOn("#save");
        await(() -> !previewOpen(robot) && newestChange(robot).change().equals("needs approval → follows its server"));
        assertThat(stored(AdminTestTools.REMOTE_FETCH).approvalBound()).isFalse();
    }
}
