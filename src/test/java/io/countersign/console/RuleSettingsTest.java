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
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.service.RunTimeline;
import io.countersign.service.StartedRun;
import io.countersign.store.StoreLocation;
import io.countersign.tools.mcp.McpPeers;
import io.countersign.service.RunCard;
import io.countersign.service.RuleService.RuleSummary;
import io.countersign.store.StoredAgentConfiguration;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.input.KeyCode;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.testfx.api.FxRobot;
import org.testfx.matcher.control.LabeledMatchers;

/** Settings → Rules over the real rule service, store and runs, as an admin writes a rule with mouse and keys. */
class RuleSettingsTest extends ConsoleRobotTest {
    private static final String CONDITION = "tool == 'fs_delete' && target.id.startsWith('releases/')";
    private static final String EXPLANATION = "Releases are kept; delete nothing under releases/.";
    private static final String GERMAN = "Releases bleiben erhalten; lösche nichts unter releases/.";
    private static final String RM_RF = "Recursive deletes are not run; remove the files one by one.";

    /** An agent whose one turn deletes a release and a draft in its workspace. */
    private void cleaner() throws Exception {
        Path workspace = Files.createDirectories(folder.resolve("ws"));
        Files.createDirectories(workspace.resolve("releases"));
        Files.createDirectories(workspace.resolve("drafts"));
        Files.writeString(workspace.resolve("releases/v1.zip"), "release");
        Files.writeString(workspace.resolve("drafts/old.md"), "draft");
        scripted("cleaner", List.of("files"), turn(call("c1", "fs_delete", "{\"path\": \"releases/v1.zip\"}"),
                call("c2", "fs_delete", "{\"path\": \"drafts/old.md\"}")));
    }

    /** An agent of the given tool groups whose scripted model takes these turns, then says it is done. */
    private void scripted(String name, List<String> groups, String... turns) throws Exception {
        Path script = Files.writeString(folder.resolve(name + ".json"), "{\"turns\": [" + String.join(", ", turns)
                + ", {\"content\": \"done\", \"usage\": {\"prompt\": 1, \"completion\": 1}}]}");
        ModelConfiguration model = new ModelConfiguration(name + "-script", "scripted", name, script.toString(),
                TrustZone.LOCAL, null, null, null, null);
        var configurations = console.runtime().store().configurations();
        configurations.saveModel(model);
        configurations.saveAgent(StoredAgentConfiguration.of(AgentConfiguration.of(name, model, groups)
                .withWorkspace(Files.createDirectories(folder.resolve("ws")).toString()), "[]"));
    }

    private static String turn(String... calls) {
        return "{\"content\": \"working\", \"toolCalls\": [" + String.join(", ", calls) + "], \"usage\":"
                + " {\"prompt\": 1, \"completion\": 1}}";
    }

    private static String call(String id, String name, String arguments) {
        return "{\"id\": \"" + id + "\", \"name\": \"" + name + "\", \"arguments\": " + arguments + "}";
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

    /** Scrolls the editor as a person does with the wheel (which the headless robot does not turn): 0 top, 1 end. */
    private static void scrollEditor(FxRobot robot, double to) {
        robot.interact(() -> robot.lookup(".rule-editor-scroll").queryAs(ScrollPane.class).setVvalue(to));
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
        // the check of the whole condition, not of a part typed before a pause
        await(() -> robot.lookup("#conditionProblem").queryAs(Label.class).getText().contains("traget"));
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

        scrollEditor(robot, 0);
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

        // the saved rule over the last day instead of the week: the same call, which opens to its arguments
        robot.clickOn(robot.lookup("#ruleTable .table-row-cell").<Node>query());
        robot.clickOn("#whatIfWindow");
        robot.clickOn(robot.lookup(".list-cell").match(LabeledMatchers.hasText("day")).<Node>query());
        robot.clickOn("#whatIf");
        await(() -> shown(robot, "#whatIfSummary"));
        assertThat(text(robot, "#whatIfSummary")).startsWith("The condition matches 1 of ")
                .contains(" calls recorded in the last day (");
        openFirstCall(robot);
        assertThat(text(robot, "#openedTitle")).startsWith("Run " + before.runId().substring(0, 8)
                + " · cleaner · fs_delete · ");
        assertThat(text(robot, "#openedArguments")).contains("\"path\" : \"releases/v1.zip\"");
        Path shot = ScreenshotWriter.write(window.scene(), "settings-rules" + suffix);
        assertThat(Files.size(shot)).isGreaterThan(10_000);
        assertThat(onFx(() -> LayoutCheck.clipped(window.scene()))).as("controls cut off").isEmpty();

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

        // the opened call's run shows its timeline
        scrollEditor(robot, 1);
        robot.clickOn("#openRun");
        await(() -> robot.lookup(".card-title").match(LabeledMatchers.hasText("cleaner · run "
                + before.runId().substring(0, 8) + " · by jonas")).tryQuery().isPresent());
    }

    /** Scrolls the editor down to the calls the what-if lists, and opens the first. */
    private static void openFirstCall(FxRobot robot) {
        scrollEditor(robot, 1);
        robot.clickOn(robot.lookup("#whatIfCalls .table-row-cell")
                .match(row -> ((TableRow<?>) row).getIndex() == 0).<Node>query());
        await(() -> shown(robot, "#openedBox"));
        scrollEditor(robot, 1);
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
        robot.clickOn("#ruleReason").write("frozen");
        robot.clickOn("#ruleExplain").write("Nothing runs during the freeze.");
        // Save right after typing waits for the condition's check: a condition that does not type-check is said so
        robot.clickOn("#ruleCondition").write("tru");
        robot.clickOn("#saveRule");
        await(() -> !robot.lookup("#problem").queryAs(Label.class).getText().isEmpty());
        assertThat(text(robot, "#problem")).isEqualTo("Not saved: the condition does not type-check; fix it, then"
                + " save.");
        assertThat(shown(robot, "#noteBox")).isFalse();
        // and one that does asks for the note once the check answers
        retype(robot, "#ruleCondition", "true");
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

    /** Types a rule into an emptied editor, waits for its condition's check, and saves it with a note. */
    private void writeRule(FxRobot robot, String identifier, String condition, Runnable action, String note) {
        robot.clickOn("#newRule");
        robot.clickOn("#ruleId").write(identifier);
        robot.clickOn("#ruleCondition").write(condition);
        await(() -> shown(robot, "#conditionFine"));
        action.run();
        robot.clickOn("#saveRule");
        await(() -> shown(robot, "#noteBox"));
        robot.clickOn("#ruleNote").write(note);
        robot.clickOn("#confirmSave");
        await(() -> rows(robot).stream().anyMatch(row -> row.rule().identifier().equals(identifier)));
    }

    @Test
    void anAdminWritesTheWebAndShellExamplesAndRealRunsStopOrRefuseOnlyTheirCalls(FxRobot robot) throws Exception {
        console = RealConsole.withDemo(folder);
        Actor admin = console.admin();
        Actor jonas = console.user("jonas");
        try (MockWebServer web = new MockWebServer()) {
            web.start();
            web.enqueue(new MockResponse.Builder().code(200).setHeader("Content-Type", "text/plain")
                    .body("The docs.").build());
            // the docs site is the local server under one name; another host is the same server under another
            String docs = web.url("/docs/").toString();
            String other = web.url("/elsewhere").newBuilder()
                    .host(web.url("/").host().equals("127.0.0.1") ? "localhost" : "127.0.0.1").build().toString();
            console.runtime().store().settings().setApprovalSetting("web_fetch", false, admin);
            scripted("fetcher", List.of("web"),
                    turn(call("c1", "web_fetch", "{\"url\": \"" + docs + "start.html\"}")),
                    turn(call("c2", "web_fetch", "{\"url\": \"" + other + "\"}")));
            Path log = folder.resolve("shell.log");
            console.runtime().store().servers().add(McpServerRecord.stdio("shell", McpPeers.node(), List.of(
                    Path.of(getClass().getResource("/mcp/shell-server.js").toURI()).toString(), log.toString()))
                    .withApprovalBound(false), admin);
            scripted("janitor", List.of("shell"), turn(call("c1", "shell.run", "{\"command\": \"rm -rf build/\"}"),
                    call("c2", "shell.run", "{\"command\": \"ls build/\"}")));

            ConsoleWindow window = console.open(robot, stage, admin, Theme.LIGHT);
            WindowSize.SMALLEST.apply(robot, stage);
            ToolSettingsTest.openSection(robot, Section.RULES);
            await(() -> robot.lookup("#ruleId").query().isVisible());
            writeRule(robot, "web.off-docs", "tool == 'web_fetch' && !args.url.startsWith('" + docs + "')",
                    () -> robot.clickOn("#actionAsk"), "Docs only");
            writeRule(robot, "shell.no-rm-rf", "tool == 'shell.run' && args.command.matches('rm\\\\s+-rf')", () -> {
                robot.clickOn("#ruleReason").write("destructive");
                robot.clickOn("#ruleExplain").write(RM_RF);
            }, "No rm -rf");
            assertThat(console.runtime().rules().find(admin, "shell.no-rm-rf").orElseThrow().action())
                    .isEqualTo(new DeclarativeRule.Action.Deny("destructive", RM_RF, null));

            // the fetch from the docs site ran untouched; the one to another host stops on a card naming the rule
            String fetching = console.runtime().runs().start(jonas, "fetcher", "Read the docs", false).runId();
            RunCard card = console.runtime().runs().card(jonas, fetching).orElseThrow();
            assertThat(card.pending()).singleElement().satisfies(pending -> {
                assertThat(pending.askedBy()).isEqualTo("web.off-docs");
                assertThat(pending.argumentsJson()).contains(other);
            });
            assertThat(web.getRequestCount()).isEqualTo(1);
            assertThat(web.takeRequest().getUrl().encodedPath()).isEqualTo("/docs/start.html");
            ToolSettingsTest.openSection(robot, Section.INBOX);
            await(() -> robot.lookup(".inbox-agent").match(LabeledMatchers.hasText("fetcher")).tryQuery()
                    .isPresent());
            robot.clickOn(robot.lookup(".inbox-agent").match(LabeledMatchers.hasText("fetcher")).<Node>query());
            await(() -> robot.lookup(".call-asked-by").tryQuery().isPresent());
            assertThat(text(robot, ".card .call-asked-by")).isEqualTo("Rule web.off-docs asks for a person on this"
                    + " call");
            ScreenshotWriter.write(window.scene(), "settings-rules-web-card-light");

            // the shell's rm -rf is refused with the explanation, in a run where the server's tools are imported
            try (CountersignRuntime runner = CountersignRuntime.openWithRemoteTools(
                    new StoreLocation.SqliteFile(folder.resolve("countersign.db")), Duration.ofSeconds(30))) {
                StartedRun cleaning = runner.runs().start(jonas, "janitor", "Clean the build", false);
                assertThat(cleaning.status()).isEqualTo(RunStatus.COMPLETED);
                assertThat(runner.runs().timeline(jonas, cleaning.runId()).entries().stream()
                        .filter(entry -> entry.kind() == RunTimeline.Kind.TOOL_RESULT).map(RunTimeline.Entry::body))
                        .contains("Error: invocation denied (rule: shell.no-rm-rf, reason: destructive). Nothing was"
                                + " executed. " + RM_RF);
            }
            assertThat(Files.readAllLines(log)).containsExactly("ls build/");
        }
    }
}
