package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static io.countersign.console.RealConsole.onFx;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.common.Theme;
import io.countersign.console.main.Section;
import io.countersign.engine.Actor;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.chat.TrustZone;
import io.countersign.engine.declarative.DeclarativeRule;
import io.countersign.service.RunCard;
import io.countersign.service.RuleService.RuleSummary;
import io.countersign.service.RunCard;
import io.countersign.store.StoredAgentConfiguration;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/** Settings → Rules over the real rule service, store and runs, as an admin writes a rule with mouse and keys. */
@ExtendWith(ApplicationExtension.class)
class RuleSettingsTest {
    private static final String CONDITION = "tool == 'fs_delete' && target.id.startsWith('releases/')";
    private static final String EXPLANATION = "Releases are kept; delete nothing under releases/.";
    private static final String GERMAN = "Releases bleiben erhalten; lösche nichts unter releases/.";

    @TempDir
    Path folder;
    private Stage stage;
    private RealConsole console;

    @Start
    void start(Stage stage) {
        this.stage = stage;
    }

    @AfterEach
    void close() {
        if (console != null) {
            assertThat(console.guard().callsOnFxThread()).as("service calls on the JavaFX thread").isEmpty();
            console.close();
        }
    }

    /** An agent whose one turn deletes a release and a draft in its workspace. */
    private void cleaner() throws Exception {
        Path workspace = Files.createDirectories(folder.resolve("ws"));
        Files.createDirectories(workspace.resolve("releases"));
        Files.createDirectories(workspace.resolve("drafts"));
        Files.writeString(workspace.resolve("releases/v1.zip"), "release");
        Files.writeString(workspace.resolve("drafts/old.md"), "draft");
        Path script = Files.writeString(folder.resolve("cleaner.json"), "{\"turns\": [{\"content\": \"working\","
                + " \"toolCalls\": [{\"id\": \"c1\", \"name\": \"fs_delete\", \"arguments\": {\"path\":"
                + " \"releases/v1.zip\"}}, {\"id\": \"c2\", \"name\": \"fs_delete\", \"arguments\": {\"path\":"
                + " \"drafts/old.md\"}}], \"usage\": {\"prompt\": 1, \"completion\": 1}}, {\"content\": \"done\","
                + " \"usage\": {\"prompt\": 1, \"completion\": 1}}]}");
        ModelConfiguration model = new ModelConfiguration("cleaner-script", "scripted", "cleaner", script.toString(),
                TrustZone.LOCAL, null, null, null, null);
        var configurations = console.runtime().store().configurations();
        configurations.saveModel(model);
        configurations.saveAgent(StoredAgentConfiguration.of(AgentConfiguration.of("cleaner", model,
                List.of("files")).withWorkspace(workspace.toString()), "[]"));
    }

    private RunCard runCleaner() {
        Actor jonas = console.user("jonas");
        String runId = console.runtime().runs().start(jonas, "cleaner", "Tidy up", false).runId();
        return console.runtime().runs().card(jonas, runId).orElseThrow();
    }

    private static String text(FxRobot robot, String selector) {
        return onFx(() -> robot.lookup(selector).queryAs(Label.class).getText());
    }

    private static boolean shown(FxRobot robot, String selector) {
        return onFx(() -> robot.lookup(selector).query().isVisible());
    }

    @SuppressWarnings("unchecked")
    private static List<RuleSummary> rows(FxRobot robot) {
        return onFx(() -> List.copyOf(robot.lookup("#ruleTable").queryAs(TableView.class).getItems()));
    }

    /** Replaces a field's text as a person does: select all, then type. */
    private static void retype(FxRobot robot, String selector, String text) {
        robot.clickOn(selector).press(KeyCode.CONTROL, KeyCode.A).release(KeyCode.A, KeyCode.CONTROL).write(text);
    }

    @ParameterizedTest
    @EnumSource(Theme.class)
    void anAdminWritesNeverDeleteUnderReleasesTriesItAndSavesItWithANote(Theme theme, FxRobot robot)
            throws Exception {
        console = RealConsole.withDemo(folder);
        cleaner();
        RunCard before = runCleaner();
        assertThat(before.refused()).isEmpty();
        Actor admin = console.admin();
        ConsoleWindow window = console.open(robot, stage, admin, theme);
        WindowSize.SMALLEST.apply(robot, stage);
        ToolSettingsTest.openSection(robot, Section.RULES);
        await(() -> robot.lookup("#ruleId").query().isVisible());
        assertThat(rows(robot)).isEmpty();

        // a built-in rule's identifier, and a typo in the condition: the check names the place and the fields
        robot.clickOn("#ruleId").write("workspace.boundary");
        robot.clickOn("#ruleCondition").write(CONDITION.replace("target.id", "traget.id"));
        await(() -> shown(robot, "#conditionProblem"));
        assertThat(text(robot, "#conditionProblem")).startsWith("line 1, column 24: ").contains("traget")
                .contains("target");
        ScreenshotWriter.write(window.scene(), "settings-rules-typing-" + theme.name().toLowerCase(Locale.ROOT));
        retype(robot, "#ruleCondition", CONDITION);
        await(() -> shown(robot, "#conditionFine") && !shown(robot, "#conditionProblem"));
        assertThat(text(robot, "#conditionFine")).isEqualTo("The condition type-checks.");

        robot.clickOn("#ruleReason").write("release_kept");
        robot.clickOn("#ruleExplain").write(EXPLANATION);
        robot.clickOn("#ruleExplainDe").write(GERMAN);

        // what-if: of the calls recorded this week, the cleaner's delete under releases/ matches
        robot.clickOn("#whatIf");
        await(() -> shown(robot, "#whatIfSummary"));
        int recorded = console.runtime().rules().whatIf(admin, new DeclarativeRule("probe", CONDITION,
                new DeclarativeRule.Action.Ask(1), DeclarativeRule.Scope.ALL, true, ""),
                java.time.Instant.now().minus(java.time.Duration.ofDays(7))).recorded();
        assertThat(text(robot, "#whatIfSummary")).isEqualTo("The condition matches 1 of " + recorded
                + " calls recorded in the last 7 days (" + recorded + " in the rule's scope).");
        assertThat(text(robot, "#whatIfAgents")).isEqualTo("By agent: cleaner 1");
        assertThat(text(robot, "#whatIfTools")).isEqualTo("By tool: fs_delete 1");

        // Save asks for the note; the service refuses the built-in rule's identifier, in its own words
        robot.clickOn("#saveRule");
        await(() -> shown(robot, "#noteBox"));
        robot.clickOn("#ruleNote").write("Releases are kept for audits");
        robot.clickOn("#confirmSave");
        await(() -> shown(robot, "#problem"));
        assertThat(text(robot, "#problem")).isEqualTo("\"workspace.boundary\" is the identifier of a built-in rule;"
                + " choose another");
        assertThat(console.runtime().rules().list(admin)).isEmpty();
        String suffix = "-" + theme.name().toLowerCase(Locale.ROOT);
        ScreenshotWriter.write(window.scene(), "settings-rules-refused" + suffix);

        retype(robot, "#ruleId", "releases.keep");
        robot.clickOn("#confirmSave");
        await(() -> rows(robot).size() == 1 && shown(robot, "#status"));
        assertThat(text(robot, "#status")).isEqualTo("Rule releases.keep is saved and live in every process.");
        assertThat(shown(robot, "#noteBox")).isFalse();
        assertThat(rows(robot).get(0).hits()).isEqualTo(1);
        DeclarativeRule stored = console.runtime().rules().find(admin, "releases.keep").orElseThrow();
        assertThat(stored.condition()).isEqualTo(CONDITION);
        assertThat(stored.action()).isEqualTo(new DeclarativeRule.Action.Deny("release_kept", EXPLANATION, GERMAN));
        assertThat(stored.scope().all()).isTrue();
        assertThat(stored.enabled()).isTrue();
        assertThat(stored.note()).isEqualTo("Releases are kept for audits");

        robot.clickOn(robot.lookup("#ruleTable .table-row-cell").<Node>query());
        robot.clickOn("#whatIf");
        await(() -> shown(robot, "#whatIfSummary"));
        Path shot = ScreenshotWriter.write(window.scene(), "settings-rules" + suffix);
        assertThat(Files.size(shot)).isGreaterThan(10_000);

        // the next run's delete under releases/ is refused on its card with the explanation; the draft's waits
        RunCard after = runCleaner();
        assertThat(after.refused()).singleElement().satisfies(refused -> {
            assertThat(refused.rule()).isEqualTo("releases.keep");
            assertThat(refused.reason()).isEqualTo("release_kept");
            assertThat(refused.explanation()).isEqualTo(EXPLANATION);
            assertThat(refused.argumentsJson()).contains("releases/v1.zip");
        });
        assertThat(after.pending()).singleElement().satisfies(pending ->
                assertThat(pending.argumentsJson()).contains("drafts/old.md"));
        assertThat(Files.exists(folder.resolve("ws/releases/v1.zip"))).isTrue();
    }

    @Test
    void aDenyRuleThatWouldRefuseEveryCallOfTheWeekIsWarnedAboutAndSavedOnlyWhenMeant(FxRobot robot)
            throws Exception {
        console = RealConsole.withDemo(folder);
        cleaner();
        runCleaner();
        Actor admin = console.admin();
        ConsoleWindow window = console.open(robot, stage, admin, Theme.LIGHT);
        WindowSize.SMALLEST.apply(robot, stage);
        ToolSettingsTest.openSection(robot, Section.RULES);
        await(() -> robot.lookup("#ruleId").query().isVisible());
        robot.clickOn("#ruleId").write("freeze");
        robot.clickOn("#ruleCondition").write("true");
        // Save waits for the condition's check, which runs a moment after the typing stops
        await(() -> shown(robot, "#conditionFine"));
        robot.clickOn("#ruleReason").write("frozen");
        robot.clickOn("#ruleExplain").write("Nothing runs during the freeze.");
        robot.clickOn("#saveRule");
        await(() -> shown(robot, "#noteBox"));
        robot.clickOn("#ruleNote").write("Release freeze");
        robot.clickOn("#confirmSave");
        await(() -> shown(robot, "#problem") && shown(robot, "#saveAnyway"));
        int recorded = console.runtime().rules().whatIf(admin, new DeclarativeRule("probe", "true",
                new DeclarativeRule.Action.Ask(1), DeclarativeRule.Scope.ALL, true, ""),
                java.time.Instant.now().minus(java.time.Duration.ofDays(7))).recorded();
        assertThat(text(robot, "#problem")).isEqualTo("Not saved: this deny rule would have refused all " + recorded
                + " calls recorded in the last 7 days; Save anyway if that is meant.");
        assertThat(console.runtime().rules().list(admin)).isEmpty();
        ScreenshotWriter.write(window.scene(), "settings-rules-refuses-everything-light");

        robot.clickOn("#saveAnyway");
        await(() -> rows(robot).size() == 1);
        assertThat(console.runtime().rules().find(admin, "freeze").orElseThrow().note()).isEqualTo("Release freeze");
        assertThat(shown(robot, "#noteBox")).isFalse();
    }

    @Test
    void anAdminWritesALargeWriteNeedsTwoApprovalsAndTheNextCardNamesTheRule(FxRobot robot) throws Exception {
        console = RealConsole.withDemo(folder);
        Actor admin = console.admin();
        console.open(robot, stage, admin, Theme.LIGHT);
        WindowSize.SMALLEST.apply(robot, stage);
        ToolSettingsTest.openSection(robot, Section.RULES);
        await(() -> robot.lookup("#ruleId").query().isVisible());

        robot.clickOn("#ruleId").write("notes.two");
        robot.clickOn("#ruleCondition").write("tool == 'fs_write' && size(args.content) > 100");
        await(() -> shown(robot, "#conditionFine"));
        robot.clickOn("#actionAsk");
        robot.clickOn("#ruleApprovals .increment-arrow-button");
        robot.clickOn("#ruleAgents").write("release-notes-bot");
        robot.clickOn("#saveRule");
        await(() -> shown(robot, "#noteBox"));
        robot.clickOn("#ruleNote").write("Long notes get a second reader");
        robot.clickOn("#confirmSave");
        await(() -> rows(robot).size() == 1);

        DeclarativeRule stored = console.runtime().rules().find(admin, "notes.two").orElseThrow();
        assertThat(stored.action()).isEqualTo(new DeclarativeRule.Action.Ask(2));
        assertThat(stored.scope().agents()).containsExactly("release-notes-bot");
        // the next release-notes run's write (its notes are longer than 100 characters) needs two people
        Actor maria = console.user("maria");
        String runId = console.runtime().runs().start(maria, "release-notes-bot", "Tidy the notes", false).runId();
        RunCard card = console.runtime().runs().card(maria, runId).orElseThrow();
        assertThat(card.approvals().required()).isEqualTo(2);
        assertThat(card.pending()).singleElement().satisfies(pending -> {
            assertThat(pending.tool()).isEqualTo("fs_write");
            assertThat(pending.askedBy()).isEqualTo("notes.two");
        });
    }
}
