package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static io.countersign.console.RealConsole.onFx;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.common.Theme;
import io.countersign.console.denials.DenialsViewModel;
import io.countersign.console.denials.TimeRange;
import io.countersign.console.main.Detail;
import io.countersign.console.main.Section;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.event.EventCount;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.service.EventService.EventDimension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableRow;
import javafx.scene.control.ToggleButton;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.matcher.control.LabeledMatchers;

/**
 * The denial browser over the real event service and a SQLite store holding the demo and seeded events: the
 * filters narrow the table and the counts, the export writes the filter, a cancelled export leaves nothing,
 * "open run" shows the timeline, and only supervisors and admins find the screen.
 */
class DenialBrowserTest extends ConsoleRobotTest {
    private static final int SECRETS = 20;
    private static final int OUTSIDE = 10;
    private static final int OLD = 7;

    @TempDir
    Path exports;

    /** The demo, plus recent refusals by two rules and older ones from three weeks ago. */
    private DenialsViewModel openAs(FxRobot robot, Actor actor) {
        console = RealConsole.withDemo(folder);
        Instant now = Instant.now();
        List<GovernanceEvent> events = new ArrayList<>();
        for (int i = 0; i < SECRETS; i++) {
            events.add(refusal(now.minus(Duration.ofMinutes(5 + i)), "no-secrets", "secret_path", "fs_read"));
        }
        for (int i = 0; i < OUTSIDE; i++) {
            events.add(refusal(now.minus(Duration.ofHours(2 + i)), "workspace-only", "outside_workspace",
                    "fs_write"));
        }
        for (int i = 0; i < OLD; i++) {
            events.add(refusal(now.minus(Duration.ofDays(20)).minus(Duration.ofMinutes(i)), "workspace-only",
                    "outside_workspace", "fs_write"));
        }
        console.runtime().store().events().appendAll(events);
        window = console.open(robot, stage, actor, Theme.LIGHT);
        robot.interact(() -> window.viewModel().sectionProperty().set(Section.DENIALS));
        DenialsViewModel denials = window.denials();
        await(() -> !denials.rows().isEmpty() && !denials.chartsLoadingProperty().get());
        return denials;
    }

    private static GovernanceEvent refusal(Instant time, String rule, String reason, String tool) {
        return new GovernanceEvent(UUID.randomUUID().toString(), time, EventType.INVOCATION_DENIED, reason, tool,
                rule, "run-" + rule, "release-notes-bot", "maria", "demo-model", null);
    }

    private static long count(List<EventCount> counts, String key) {
        return counts.stream().filter(count -> count.key().equals(key)).mapToLong(EventCount::count).sum();
    }

    private static void choose(FxRobot robot, String comboId, String item) {
        robot.clickOn(comboId);
        robot.clickOn(robot.lookup(".list-cell").match(LabeledMatchers.hasText(item)).<Node>query());
    }

    @Test
    void theOperatorsDenyReasonIsShownToASupervisorInTheDecisionsDetail(FxRobot robot) {
        console = RealConsole.withDemo(folder);
        Actor admin = console.admin();
        String runId = console.runtime().runs().recent(admin, 100).stream()
                .filter(run -> run.agent().equals("release-notes-bot")).findFirst().orElseThrow().runId();
        String digest = console.runtime().runs().card(admin, runId).orElseThrow().digest();
        console.runtime().runs().decide(console.runtime().user("maria"), runId, digest,
                List.of(Decision.CallVerdict.deny(0, "Wrong file: the notes live in CHANGES.md")));
        window = console.open(robot, stage, Actor.of("sam", Role.SUPERVISOR), Theme.LIGHT);
        robot.interact(() -> window.viewModel().sectionProperty().set(Section.DENIALS));
        DenialsViewModel denials = window.denials();
        await(() -> denials.rows().stream().anyMatch(event -> event.type() == EventType.APPROVAL_DECIDED));

        robot.clickOn(onFx(() -> robot.lookup(".table-row-cell").queryAllAs(TableRow.class).stream()
                .filter(row -> row.getItem() instanceof GovernanceEvent event
                        && event.type() == EventType.APPROVAL_DECIDED).<Node>map(row -> row).findFirst()
                .orElseThrow()));

        await(() -> detailTexts(robot).contains("Call 1: “Wrong file: the notes live in CHANGES.md”"));
        assertThat(detailTexts(robot)).contains("Deny reason");
    }

    private static List<String> detailTexts(FxRobot robot) {
        return onFx(() -> robot.lookup("#detailGrid .label").queryAllAs(Label.class).stream().map(Label::getText)
                .toList());
    }

    @Test
    void filteringByRuleNarrowsTheTableAndTheCounts(FxRobot robot) {
        DenialsViewModel denials = openAs(robot, Actor.of("sam", Role.SUPERVISOR));
        assertThat(count(denials.counts(EventDimension.RULE), "workspace-only")).isEqualTo(OUTSIDE);
        assertThat(count(denials.counts(EventDimension.REASON), "secret_path")).isEqualTo(SECRETS);

        choose(robot, "#ruleFilter", "no-secrets");

        await(() -> denials.rows().size() == SECRETS && !denials.chartsLoadingProperty().get()
                && denials.counts(EventDimension.RULE).size() == 1);
        assertThat(onFx(() -> denials.rows().stream().map(GovernanceEvent::ruleId).distinct().toList()))
                .containsExactly("no-secrets");
        assertThat(onFx(() -> List.copyOf(denials.counts(EventDimension.RULE))))
                .containsExactly(new EventCount("no-secrets", SECRETS));
        assertThat(onFx(() -> List.copyOf(denials.counts(EventDimension.REASON))))
                .containsExactly(new EventCount("secret_path", SECRETS));
        assertThat(onFx(() -> denials.totalProperty().get())).isEqualTo(SECRETS);
        assertThat(onFx(() -> robot.lookup("#position").queryLabeled().getText())).isEqualTo("1–20 of 20");
    }

    @Test
    void widerTimeRangeBringsOlderEventsIntoTableAndCounts(FxRobot robot) {
        DenialsViewModel denials = openAs(robot, Actor.of("sam", Role.SUPERVISOR));
        robot.interact(() -> denials.filters().ruleProperty().set("workspace-only"));
        await(() -> denials.rows().size() == OUTSIDE && !denials.chartsLoadingProperty().get());
        assertThat(onFx(() -> denials.totalProperty().get())).isEqualTo(OUTSIDE);

        choose(robot, "#rangeFilter", "Last 30 days");

        await(() -> denials.rows().size() == OUTSIDE + OLD && !denials.chartsLoadingProperty().get()
                && denials.totalProperty().get() == OUTSIDE + OLD);
        assertThat(onFx(() -> count(denials.counts(EventDimension.RULE), "workspace-only")))
                .isEqualTo(OUTSIDE + OLD);
        assertThat(onFx(() -> denials.byDay().size())).isGreaterThanOrEqualTo(2);

        choose(robot, "#rangeFilter", "Last hour");

        await(() -> denials.rows().isEmpty() && denials.totalProperty().get() == 0);
    }

    @Test
    void aRangeThatEndsBeforeItBeginsIsRefusedWithTheDays(FxRobot robot) {
        DenialsViewModel denials = openAs(robot, Actor.of("sam", Role.SUPERVISOR));
        LocalDate today = LocalDate.now();

        robot.interact(() -> {
            denials.filters().fromProperty().set(today);
            denials.filters().toProperty().set(today.minusDays(3));
        });

        assertThat(onFx(() -> denials.filters().rangeProperty().get())).isEqualTo(TimeRange.CUSTOM);
        assertThat(onFx(() -> robot.lookup("#problem").queryLabeled().getText())).isEqualTo("The range ends ("
                + today.minusDays(3) + ") before it begins (" + today + "): pick a “to” day on or after the “from”"
                + " day.");
        robot.interact(() -> denials.filters().toProperty().set(today));
        await(() -> denials.problemProperty().get().isEmpty() && denials.totalProperty().get() >= 0);
    }

    @Test
    void pagesGoOlderAndBackNewerByKeyset(FxRobot robot) {
        DenialsViewModel denials = openAs(robot, Actor.of("sam", Role.SUPERVISOR));
        List<GovernanceEvent> many = new ArrayList<>();
        Instant now = Instant.now();
        for (int i = 0; i < DenialsViewModel.PAGE_SIZE + 30; i++) {
            many.add(refusal(now.minus(Duration.ofSeconds(i + 1)), "paging", "many", "fs_list"));
        }
        console.runtime().store().events().appendAll(many);
        robot.interact(() -> denials.filters().ruleProperty().set("paging"));
        await(() -> denials.rows().size() == DenialsViewModel.PAGE_SIZE && denials.hasOlderProperty().get());
        GovernanceEvent newest = onFx(() -> denials.rows().get(0));

        robot.clickOn("#olderButton");
        await(() -> denials.rows().size() == 30 && !denials.hasOlderProperty().get());
        assertThat(onFx(() -> robot.lookup("#position").queryLabeled().getText())).isEqualTo("101–130 of 130");

        robot.clickOn("#newerButton");
        await(() -> denials.rows().size() == DenialsViewModel.PAGE_SIZE && !denials.hasNewerProperty().get());
        assertThat(onFx(() -> denials.rows().get(0))).isEqualTo(newest);
    }

    @Test
    void anAnswerForAnOldFilterNeverReplacesTheNewOne(FxRobot robot) throws Exception {
        DenialsViewModel denials = openAs(robot, Actor.of("sam", Role.SUPERVISOR));
        CountDownLatch slowEntered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean slowOnce = new AtomicBoolean(true);
        console.guard().beforeEachCall(method -> {
            if (method.equals("page") && slowOnce.compareAndSet(true, false)) {
                slowEntered.countDown();
                awaitQuietly(release);
            }
        });
        robot.interact(() -> denials.filters().ruleProperty().set("workspace-only"));
        assertThat(slowEntered.await(10, TimeUnit.SECONDS)).isTrue();

        robot.interact(() -> denials.filters().ruleProperty().set("no-secrets"));
        await(() -> denials.rows().size() == SECRETS);
        release.countDown();
        // the old answer arrives now, and must be dropped
        Thread.sleep(300);
        await(() -> !denials.loadingProperty().get());

        assertThat(onFx(() -> denials.rows().stream().map(GovernanceEvent::ruleId).distinct().toList()))
                .containsExactly("no-secrets");
    }

    @Test
    void anExportHoldsExactlyTheFilteredEvents(FxRobot robot) throws Exception {
        DenialsViewModel denials = openAs(robot, Actor.of("sam", Role.SUPERVISOR));
        robot.interact(() -> denials.filters().ruleProperty().set("no-secrets"));
        await(() -> denials.rows().size() == SECRETS);
        Path target = exports.resolve("no-secrets.csv");

        robot.interact(() -> denials.export().start(target));

        await(() -> !denials.export().runningProperty().get() && Files.exists(target));
        List<String> lines = Files.readAllLines(target, StandardCharsets.UTF_8);
        assertThat(lines.get(0)).isEqualTo("id,time,type,reason,tool,rule,run,agent,actor,model,detail");
        assertThat(lines.subList(1, lines.size())).hasSize(SECRETS)
                .allSatisfy(line -> assertThat(line.split(",", -1)[5]).isEqualTo("no-secrets"));
        assertThat(onFx(() -> robot.lookup("#exportStatus").queryLabeled().getText()))
                .isEqualTo("Exported 20 events to " + target.toAbsolutePath() + ".");
        try (Stream<Path> files = Files.list(exports)) {
            assertThat(files).containsExactly(target);
        }
    }

    @Test
    void aCancelledExportLeavesNoFile(FxRobot robot) throws Exception {
        DenialsViewModel denials = openAs(robot, Actor.of("sam", Role.SUPERVISOR));
        CountDownLatch release = new CountDownLatch(1);
        console.guard().beforeEachCall(method -> {
            if (method.equals("exportCsv")) {
                awaitQuietly(release);
            }
        });
        Path target = exports.resolve("all.csv");
        robot.interact(() -> denials.export().start(target));
        await(() -> robot.lookup("#cancelExport").query().isVisible());

        robot.clickOn("#cancelExport");
        release.countDown();

        await(() -> !denials.export().runningProperty().get());
        assertThat(onFx(() -> robot.lookup("#exportStatus").queryLabeled().getText()))
                .isEqualTo("Export cancelled; no file was written.");
        await(() -> {
            try (Stream<Path> files = Files.list(exports)) {
                return files.findAny().isEmpty();
            }
        });
    }

    @Test
    void openRunShowsTheRunsTimeline(FxRobot robot) {
        DenialsViewModel denials = openAs(robot, Actor.of("sam", Role.SUPERVISOR));
        // the demo's own refusal belongs to a run the store holds
        GovernanceEvent refusal = onFx(() -> denials.rows().stream()
                .filter(event -> !event.runId().startsWith("run-")).findFirst().orElseThrow());
        robot.interact(() -> denials.selectedProperty().set(refusal));

        robot.clickOn("#openRun");

        await(() -> window.viewModel().sectionProperty().get() == Section.RUNS
                && window.viewModel().detailProperty().get() instanceof Detail.Timeline shown
                && shown.runId().equals(refusal.runId()));
        await(() -> robot.lookup(".timeline .card-title").queryLabeled().getText()
                .startsWith(refusal.agentConfiguration()));
    }

    @Test
    void theDetailPaneShowsTheWholeEvent(FxRobot robot) {
        DenialsViewModel denials = openAs(robot, Actor.of("sam", Role.SUPERVISOR));
        robot.interact(() -> denials.filters().ruleProperty().set("no-secrets"));
        await(() -> denials.rows().size() == SECRETS);

        // the first row's tool cell; the table keeps spare cells for measuring under a hidden parent
        robot.clickOn(robot.lookup(".denials-table .table-cell").match(LabeledMatchers.hasText("fs_read"))
                .match(node -> ((TableCell<?, ?>) node).getIndex() == 0 && node.getParent().getParent().isVisible())
                .<Node>query());

        await(() -> !denials.details().isEmpty());
        List<String> shown = onFx(() -> robot.lookup(".detail-grid .label").queryAllAs(Label.class)
                .stream().map(Label::getText).toList());
        assertThat(shown).contains("An invocation rule refused the call before anyone saw it.", "no-secrets",
                "secret_path", "fs_read", "release-notes-bot", "maria", "demo-model", "run-no-secrets");
    }

    @Test
    void anOperatorNeverSeesTheDenials(FxRobot robot) {
        console = RealConsole.withDemo(folder);
        window = console.open(robot, stage, console.user("maria"), Theme.LIGHT);
        await(() -> robot.lookup(".nav-item").tryQuery().isPresent());

        assertThat(sidebar(robot)).contains(Section.INBOX).doesNotContain(Section.DENIALS);
        assertThat(console.guard().calls()).doesNotContain("page", "counts", "countsByDay", "charts");
    }

    @Test
    void theBrowserWaitsHiddenInTheWindowOnceThePersonLeavesItAlone(FxRobot robot) {
        console = RealConsole.withDemo(folder);
        window = console.open(robot, stage, console.admin(), Theme.LIGHT);
        await(() -> window.viewModel().inbox().loadedProperty().get());

        await(() -> robot.lookup(".denials").tryQuery().isPresent() && !window.denials().rows().isEmpty());
        assertThat(onFx(() -> robot.lookup(".denials").query().isVisible())).isFalse();
        assertThat(onFx(() -> robot.lookup(".panes").query().isVisible())).isTrue();
        assertThat(window.viewModel().sectionProperty().get()).isEqualTo(Section.INBOX);

        robot.interact(() -> window.viewModel().sectionProperty().set(Section.DENIALS));
        assertThat(onFx(() -> robot.lookup(".denials").query().isVisible())).isTrue();
        assertThat(onFx(() -> robot.lookup(".panes").query().isVisible())).isFalse();
    }

    @Test
    void aPersonAtWorkIsNotHeldUpByTheBrowserPreparingItself(FxRobot robot) {
        console = RealConsole.withDemo(folder);
        window = console.open(robot, stage, console.admin(), Theme.LIGHT);
        await(() -> window.viewModel().inbox().loadedProperty().get());

        // the mouse moves on every half second for five seconds: never two quiet seconds in a row
        for (int move = 0; move < 10; move++) {
            robot.moveTo(robot.lookup(".nav-item").nth(move % 3).<Node>query());
            robot.sleep(500);
            assertThat(robot.lookup(".denials").tryQuery()).as("after %d moves", move + 1).isEmpty();
        }

        await(() -> robot.lookup(".denials").tryQuery().isPresent());
    }

    @Test
    void aSupervisorFindsTheDenialsButNoPurge(FxRobot robot) {
        openAs(robot, Actor.of("sam", Role.SUPERVISOR));

        assertThat(sidebar(robot)).contains(Section.DENIALS);
        assertThat(onFx(() -> robot.lookup("#purgeButton").query().isVisible())).isFalse();
    }

    @Test
    void anAdminPurgesOnlyAfterConfirmingHowManyEventsGo(FxRobot robot) {
        DenialsViewModel denials = openAs(robot, Actor.of("ada", Role.ADMIN));
        robot.interact(() -> denials.filters().rangeProperty().set(TimeRange.ALL));
        await(() -> denials.totalProperty().get() > OLD && !denials.chartsLoadingProperty().get());
        long before = onFx(() -> denials.totalProperty().get());

        robot.clickOn("#purgeButton");
        robot.doubleClickOn("#purgeDays .text-field").write("10");
        robot.clickOn(robot.lookup(".dialog-pane .button").match(LabeledMatchers.hasText("Count them")).<Node>query());
        await(() -> robot.lookup(".dialog-pane .content").queryAll().stream()
                .anyMatch(node -> node instanceof Label label
                        && label.getText().startsWith("All 7 events older than 10 days")));
        robot.clickOn(robot.lookup(".dialog-pane .button").match(LabeledMatchers.hasText("Delete 7")).<Node>query());

        await(() -> denials.totalProperty().get() == before - OLD
                && denials.purge().statusProperty().get().equals("Purged 7 events older than 10 days."));
    }

    private static List<Section> sidebar(FxRobot robot) {
        return onFx(() -> robot.lookup(".nav-item").queryAll().stream()
                .filter(node -> node instanceof ToggleButton && node.getUserData() instanceof Section)
                .map(node -> (Section) node.getUserData()).toList());
    }
}
