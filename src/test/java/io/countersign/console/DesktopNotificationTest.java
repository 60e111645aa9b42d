package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static io.countersign.console.RealConsole.onFx;
import static org.assertj.core.api.Assertions.assertThat;
import atlantafx.base.controls.ToggleSwitch;
import com.sun.javafx.stage.WindowHelper;
import io.countersign.console.common.Messages;
import io.countersign.console.common.Theme;
import io.countersign.console.main.Detail;
import io.countersign.console.notify.DesktopNotifier;
import io.countersign.console.notify.FreedesktopNotifier;
import io.countersign.console.notify.NotificationRecorder;
import io.countersign.console.notify.SessionBus;
import io.countersign.console.notify.ShownNotice;
import io.countersign.engine.Actor;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.agent.DeadlineAction;
import io.countersign.engine.agent.DeadlineRule;
import io.countersign.engine.agent.DecisionDeadlines;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.store.StoredAgentConfiguration;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.scene.control.Label;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;

/**
 * The console's desktop notifications over a real session bus, received by a recording notification server: a
 * card that starts waiting elsewhere while the window is in the background is announced, a click on the
 * notification opens it; a focused window or a muted person gets none.
 */
class DesktopNotificationTest extends ConsoleRobotTest {
    private static final String PROMPT = "Compare the changelog of the release candidate";

    private SessionBus bus;
    private NotificationRecorder server;
    private final List<String> desktopCallsOnFxThread = new CopyOnWriteArrayList<>();

    @BeforeEach
    void open(FxRobot robot) throws Exception {
        bus = closedAfterTheConsole(SessionBus.start(Files.createDirectories(folder.resolve("bus"))));
        server = closedAfterTheConsole(NotificationRecorder.serve(bus.address(), List.of("actions", "body",
                "body-markup")));
        console = RealConsole.withDemo(Files.createDirectories(folder.resolve("store")));
        window = console.open(robot, stage, console.admin(), Theme.LIGHT);
        WindowSize.SMALLEST.apply(robot, stage);
        DesktopNotifier desktop = offTheFxThread(FreedesktopNotifier.connect(bus.address(), "Open card"));
        robot.interact(() -> window.notifyThrough(desktop));
        await(() -> window.viewModel().inbox().allRuns().size() == 3);
    }

    @AfterEach
    void noDesktopCallOnTheFxThread() {
        assertThat(desktopCallsOnFxThread).as("calls to the desktop on the JavaFX thread").isEmpty();
    }

    @Test
    void aCardThatStartsWaitingWhileTheWindowIsInTheBackgroundIsAnnouncedWithoutItsArguments(FxRobot robot) {
        leaveTheWindow(robot);

        startElsewhere();

        await(() -> server.received().size() == 1);
        NotificationRecorder.Received notice = server.received().get(0);
        assertThat(notice.appName()).isEqualTo("Countersign");
        assertThat(notice.summary()).isEqualTo("Approval waiting: web_fetch");
        assertThat(notice.body()).isEqualTo("web-research · started by jonas");
        assertThat(notice.actions()).containsExactly("default", "Open card");
        assertThat(notice.summary() + notice.body()).doesNotContain("example.com", "changelog", "url");
    }

    @Test
    void aFocusedWindowSendsNothing(FxRobot robot) {
        robot.interact(() -> WindowHelper.setFocused(stage, true));
        startElsewhere();
        await(() -> window.viewModel().inbox().allRuns().size() == 4);

        leaveTheWindow(robot);
        String later = startElsewhere();

        await(() -> server.received().size() == 1);
        await(() -> window.viewModel().inbox().allRuns().size() == 5);
        assertThat(server.received()).singleElement().satisfies(notice ->
                assertThat(notice.summary()).isEqualTo("Approval waiting: web_fetch"));
        clickAndAwaitCard(robot, later);
    }

    @Test
    void theSwitchMutesTheNoticesAndTurnsThemOnAgain(FxRobot robot) {
        leaveTheWindow(robot);
        robot.clickOn(".status-switch .thumb-area");
        assertThat(window.notices().mutedProperty().get()).isTrue();
        startElsewhere();
        await(() -> window.viewModel().inbox().allRuns().size() == 4);

        robot.clickOn(".status-switch .thumb-area");
        leaveTheWindow(robot);
        String later = startElsewhere();

        await(() -> server.received().size() == 1);
        assertThat(window.notices().mutedProperty().get()).isFalse();
        clickAndAwaitCard(robot, later);
    }

    @Test
    void clickingTheNotificationBringsTheWindowForwardWithTheCardOpen(FxRobot robot) {
        leaveTheWindow(robot);
        String runId = startElsewhere();

        await(() -> server.received().size() == 1);
        clickAndAwaitCard(robot, runId);

        assertThat(onFx(() -> window.viewModel().detailProperty().get())).isEqualTo(new Detail.ApprovalCard(runId));
    }

    @Test
    void aCardDecidedElsewhereTakesItsNotificationBack(FxRobot robot) {
        leaveTheWindow(robot);
        String runId = startElsewhere();
        await(() -> server.received().size() == 1);

        CountersignRuntime other = console.otherProcess();
        Actor jonas = other.store().users().find("jonas").orElseThrow();
        var card = other.runs().card(jonas, runId).orElseThrow();
        other.runs().decide(jonas, runId, card.digest(), List.of(
                new Decision.CallVerdict(card.pending().get(0).index(), false,
                        "not today")));

        await(() -> server.closed().contains(server.received().get(0).id()));
    }

    @Test
    void theSwitchInTheStatusBarLightAndDark(FxRobot robot) {
        assertThat(onFx(() -> robot.lookup(".status-switch").queryAs(ToggleSwitch.class).getText()))
                .isEqualTo("Desktop notifications");
        assertThat(onFx(() -> robot.lookup(".status-switch").queryAs(ToggleSwitch.class).isSelected())).isTrue();
        ScreenshotWriter.write(window.scene(), "notifications-switch-light");
        robot.clickOn(".status-switch .thumb-area");
        robot.interact(() -> window.viewModel().toggleTheme());
        ScreenshotWriter.write(window.scene(), "notifications-switch-muted-dark");
    }

    @Test
    void anEscalationAndANearDeadlineAreUrgentAndReplaceTheCardsFirstNotification(FxRobot robot) throws Exception {
        StoredAgentConfiguration web = console.runtime().store().configurations().findAgent("web-research")
                .orElseThrow();
        console.runtime().store().configurations().saveAgent(new StoredAgentConfiguration(web.name(),
                web.systemPrompt(), web.modelName(), web.toolGroups(), web.allowedTools(), web.workspace(),
                web.toolCallPolicies(), web.maxRounds(), web.fourEyes(), new DecisionDeadlines(
                new DeadlineRule(Duration.ofMinutes(30), DeadlineAction.ESCALATE), Map.of(), null)));
        leaveTheWindow(robot);
        String runId = startElsewhere();
        await(() -> server.received().size() == 1);
        NotificationRecorder.Received waiting = server.received().get(0);
        assertThat(waiting.body()).matches("web-research · started by jonas · (30m 0\\ds|29m \\d\\ds) left");

        // the first deadline passes; another process's sweep escalates the card to the admins, for 30 more minutes
        dueIn(runId, Duration.ofSeconds(-1));
        assertThat(console.otherProcess().applyDeadlines()).hasSize(1);
        await(() -> server.received().size() == 2);
        NotificationRecorder.Received escalated = server.received().get(1);
        assertThat(escalated.summary()).isEqualTo("Escalated to you: web_fetch");
        assertThat(escalated.hints()).containsEntry("urgency", (byte) 2);
        assertThat(escalated.replacesId()).isEqualTo(waiting.id());

        // as if 29 of those minutes had passed; the inbox learns the new time at its next refresh
        dueIn(runId, Duration.ofSeconds(40));
        robot.interact(() -> window.viewModel().inbox().refresh());
        await(() -> server.received().size() == 3);
        assertThat(server.received().get(2).summary()).matches("(4\\d|3\\d)s left: web_fetch");
        assertThat(server.received().get(2).replacesId()).isEqualTo(waiting.id());
        clickAndAwaitCard(robot, runId);
    }

    /** Moves a waiting run's stored deadline to this far from now. */
    private void dueIn(String runId, Duration left) throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:"
                + console.folder().resolve("countersign.db"));
             PreparedStatement update = connection.prepareStatement("UPDATE runs SET deadline = ? WHERE id = ?")) {
            Instant due = Instant.now().plus(left);
            update.setLong(1, due.getEpochSecond() * 1_000_000_000L + due.getNano());
            update.setString(2, runId);
            assertThat(update.executeUpdate()).isEqualTo(1);
        }
    }

    /** The notifier, noting every call that reaches it on the JavaFX thread. */
    private DesktopNotifier offTheFxThread(DesktopNotifier notifier) {
        return new DesktopNotifier() {
            @Override
            public void show(ShownNotice notice) {
                note("show");
                notifier.show(notice);
            }

            @Override
            public void withdraw(String runId) {
                note("withdraw");
                notifier.withdraw(runId);
            }

            @Override
            public void onOpen(Consumer<String> listener) {
                notifier.onOpen(listener);
            }

            @Override
            public String description() {
                return notifier.description();
            }

            @Override
            public void close() {
                note("close");
                notifier.close();
            }

            private void note(String call) {
                if (Platform.isFxApplicationThread()) {
                    desktopCallsOnFxThread.add(call);
                }
            }
        };
    }

    /** The headless platform moves no focus between windows: the desktop would say the person went elsewhere. */
    private void leaveTheWindow(FxRobot robot) {
        robot.interact(() -> WindowHelper.setFocused(stage, false));
    }

    /** Jonas starts a web research in another process; it waits for approval of its web_fetch. */
    private String startElsewhere() {
        CountersignRuntime other = console.otherProcess();
        Actor jonas = other.store().users().find("jonas").orElseThrow();
        return other.runs().start(jonas, "web-research", PROMPT, false).runId();
    }

    private void clickAndAwaitCard(FxRobot robot, String runId) {
        long id = server.received().get(server.received().size() - 1).id();
        try {
            server.click(id);
        } catch (Exception e) {
            throw new AssertionError("the click could not be sent over the bus", e);
        }
        String title = Messages.forLocale(Locale.ENGLISH).get("card.title", "web-research",
                Messages.forLocale(Locale.ENGLISH).shortRunId(runId), "jonas");
        await(() -> robot.lookup(".card-title").queryAllAs(Label.class).stream()
                .anyMatch(shown -> shown.isVisible() && shown.getText().equals(title)));
    }
}
