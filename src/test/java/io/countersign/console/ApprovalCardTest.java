package io.countersign.console;

import static io.countersign.console.RealConsole.await;
import static io.countersign.console.RealConsole.onFx;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.common.Theme;
import io.countersign.engine.Actor;
import io.countersign.engine.decision.Decision.CallVerdict;
import io.countersign.engine.port.WaitingRun;
import io.countersign.engine.state.RunStatus;
import io.countersign.runtime.CountersignRuntime;
import io.countersign.service.RunCard;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.testfx.api.FxRobot;
import org.testfx.matcher.control.LabeledMatchers;

/** The approval card on the real scenes, over the real run service and a SQLite store with the demo. */
class ApprovalCardTest extends ConsoleRobotTest {
    @BeforeEach
    void demo() {
        console = RealConsole.withDemo(folder);
    }

    private void openReleaseNotes(FxRobot robot, Actor actor) {
        window = console.open(robot, stage, actor, Theme.LIGHT);
        await(() -> robot.lookup(".inbox-agent").match(LabeledMatchers.hasText("release-notes-bot")).tryQuery()
                .isPresent());
        robot.clickOn(robot.lookup(".inbox-agent").match(LabeledMatchers.hasText("release-notes-bot"))
                .<Node>query());
        await(() -> robot.lookup(".verdict-approve").tryQuery().isPresent());
    }

    private static String submitText(FxRobot robot) {
        return onFx(() -> robot.lookup(".submit").queryButton().getText());
    }

    private static boolean toastSays(FxRobot robot, String text) {
        return robot.lookup(".toast-text").queryAllAs(Label.class).stream()
                .anyMatch(label -> label.getText().equals(text));
    }

    private WaitingRun waiting(String agent) {
        return console.runtime().runs().inbox(console.admin()).stream().filter(run -> run.agent().equals(agent))
                .findFirst().orElseThrow();
    }

    @Test
    void theCardShowsTheWaitingWriteAndTheRefusedDeleteWithItsExplanation(FxRobot robot) {
        openReleaseNotes(robot, console.admin());

        List<String> texts = onFx(() -> robot.lookup(".label").queryAllAs(Label.class).stream()
                .map(Label::getText).toList());
        assertThat(texts).contains("WAITING FOR YOUR DECISION (1)", "ALREADY REFUSED BY A RULE (1)", "fs_write",
                "fs_delete", "rule workspace.boundary · outside_workspace", "+## 2.4 — faster sync",
                "Refused whatever you decide.");
        assertThat(texts).anyMatch(text -> text.contains("release-notes"));
        assertThat(submitText(robot)).isEqualTo("Submit (1 call left to decide)");
    }

    @ParameterizedTest
    @EnumSource(WindowSize.class)
    void aRefusedCallShowsWhatItTriedAndThatItIsRefusedWhateverTheDecision(WindowSize size, FxRobot robot) {
        openReleaseNotes(robot, console.admin());
        size.apply(robot, stage);

        robot.clickOn(robot.lookup(".badge").match(LabeledMatchers.hasText("1 call refused by a rule ↓"))
                .<Node>query());

        await(() -> robot.lookup(".refused-pane .call-arguments").queryTextInputControl().isVisible());
        assertThat(onFx(() -> robot.lookup(".refused-pane .call-arguments").queryTextInputControl().getText()))
                .contains("path: \"../old-draft.md\"");
        assertThat(onFx(() -> robot.lookup(".refused-pane .callout-consequence").queryAs(Label.class).getText()))
                .isEqualTo("Refused whatever you decide.");
    }

    @Test
    void approvingTheTurnLetsTheRunContinueAndTheCardLeaves(FxRobot robot) throws Exception {
        openReleaseNotes(robot, console.admin());
        String runId = waiting("release-notes-bot").runId();

        robot.clickOn(".verdict-approve");
        assertThat(submitText(robot)).isEqualTo("Submit: 1 approve");
        robot.clickOn(".submit");

        await(() -> toastSays(robot, "release-notes-bot: 1 call approved. The run completed."));
        await(() -> robot.lookup(".inbox-agent").match(LabeledMatchers.hasText("release-notes-bot")).tryQuery()
                .isEmpty());
        assertThat(Files.readString(folder.resolve("demo-workspace/release-notes/NOTES.md"))).contains("## 2.4");
        assertThat(console.runtime().runs().timeline(console.admin(), runId).status())
                .isEqualTo(RunStatus.COMPLETED);
        await(() -> robot.lookup(".card-title").queryAllAs(Label.class).stream()
                .anyMatch(title -> title.getText().startsWith("intake-form")));
    }

    @Test
    void aDenialWithAPresetReasonReachesTheTranscript(FxRobot robot) {
        openReleaseNotes(robot, console.admin());

        robot.clickOn(".verdict-deny");
        robot.clickOn("#reason");
        robot.interact(() -> robot.lookup("#reason").<ComboBox<String>>query().show());
        robot.clickOn(robot.lookup(".list-cell").match(LabeledMatchers.hasText("Wrong target")).<Node>query());
        assertThat(submitText(robot)).isEqualTo("Submit: 1 deny");
        robot.clickOn(".submit");
        // once sent, after the undo time, the toast leads to the timeline
        await(() -> robot.lookup(".toast-link").match(LabeledMatchers.hasText("Open timeline")).tryQuery()
                .isPresent());
        robot.clickOn(robot.lookup(".toast-link").match(LabeledMatchers.hasText("Open timeline")).<Node>query());

        String declined = "declined by " + console.admin().name() + ": Wrong target";
        await(() -> robot.lookup(".entry-body").queryAllAs(Label.class).stream()
                .anyMatch(body -> body.getText().contains(declined)));
    }

    @Test
    void aCardThatChangedIsRefusedAsStaleAndReloads(FxRobot robot) throws Exception {
        openReleaseNotes(robot, console.admin());
        // the file the write would change is changed on disk: the preview no longer matches the card
        Path notes = folder.resolve("demo-workspace/release-notes/NOTES.md");
        Files.writeString(notes, Files.readString(notes) + "\nA line someone added meanwhile.\n");

        robot.clickOn(".verdict-approve");
        robot.clickOn(".submit");

        // refused when it is sent, after the undo time: the toast says so and opens the card as it is now
        await(() -> toastSays(robot, "release-notes-bot: your decision was not recorded. This card changed since"
                + " you opened it."));
        assertThat(Files.readString(notes)).doesNotContain("## 2.4");
        robot.clickOn(robot.lookup(".toast-link").match(LabeledMatchers.hasText("Open card")).<Node>query());
        await(() -> robot.lookup(".badge-stale").tryQuery().isPresent()
                && submitText(robot).equals("Submit (1 call left to decide)"));
    }

    @Test
    void aCardAnotherProcessDecidedFirstSaysWhoAndBecomesReadOnly(FxRobot robot) {
        openReleaseNotes(robot, console.admin());
        CountersignRuntime other = console.otherProcess();
        Actor jonas = other.store().users().find("jonas").orElseThrow();
        console.guard().beforeEachCall(method -> {
            if (method.equals("decide")) {
                RunCard card = other.runs().card(jonas, waiting("release-notes-bot").runId()).orElseThrow();
                other.runs().decide(jonas, card.runId(), card.digest(), List.of(CallVerdict.approve(0)));
            }
        });

        robot.clickOn(".verdict-approve");
        robot.clickOn(".submit");

        await(() -> robot.lookup(".toast-text").queryAllAs(Label.class).stream().anyMatch(text -> text.getText()
                .startsWith("release-notes-bot: your decision was not recorded. Decided by jonas at ")));
        // the run no longer waits: it does not come back to the inbox
        assertThat(onFx(() -> window.viewModel().inbox().allRuns().stream()
                .noneMatch(run -> run.agent().equals("release-notes-bot")))).isTrue();
    }

    @ParameterizedTest
    @EnumSource(WindowSize.class)
    void aCardDecidedElsewhereSaysWhoWhenAndWhatAndTakesNoMoreKeys(WindowSize size, FxRobot robot) {
        openReleaseNotes(robot, console.admin());
        size.apply(robot, stage);
        String runId = waiting("release-notes-bot").runId();
        CountersignRuntime other = console.otherProcess();
        Actor jonas = other.store().users().find("jonas").orElseThrow();
        console.guard().beforeEachCall(method -> {
            if (method.equals("decide")) {
                RunCard card = other.runs().card(jonas, runId).orElseThrow();
                other.runs().decide(jonas, card.runId(), card.digest(), List.of(CallVerdict.approve(0)));
            }
        });

        robot.clickOn(".verdict-deny");
        robot.clickOn(".submit");

        // jonas decides just before the held denial is sent: it is refused, and the toast says who and when
        await(() -> console.runtime().store().runs().find(runId).orElseThrow().lastDecision() != null);
        Instant decidedAt = console.runtime().store().runs().find(runId).orElseThrow().lastDecision().decidedAt();
        String told = "release-notes-bot: your decision was not recorded. Decided by jonas at "
                + DateTimeFormatter.ofPattern("HH:mm").format(decidedAt.atZone(ZoneId.systemDefault()))
                + " (approved 1 call)";
        await(() -> toastSays(robot, told));
        assertThat(console.runtime().store().runs().find(runId).orElseThrow().lastDecision().decidedBy())
                .isEqualTo("jonas");
        // the toast leads to the timeline, not to a card: the run waits no more
        robot.clickOn(robot.lookup(".toast-link").match(LabeledMatchers.hasText("Open timeline")).<Node>query());
        await(() -> robot.lookup(".entry-decision").tryQuery().isPresent());
        assertThat(onFx(() -> robot.lookup(".submit").tryQuery().filter(Node::isVisible))).isEmpty();
    }

    @Test
    void aCardDecidedElsewhereWhileOpenSaysItNoLongerWaits(FxRobot robot) {
        openReleaseNotes(robot, console.admin());
        CountersignRuntime other = console.otherProcess();
        Actor jonas = other.store().users().find("jonas").orElseThrow();
        RunCard card = other.runs().card(jonas, waiting("release-notes-bot").runId()).orElseThrow();

        other.runs().decide(jonas, card.runId(), card.digest(), List.of(CallVerdict.deny(0, "Not needed")));

        await(() -> robot.lookup(".card .banner-text").queryAllAs(Label.class).stream()
                .anyMatch(text -> text.getText().equals("This run no longer waits for a decision.")));
        assertThat(onFx(() -> robot.lookup(".submit").queryAs(Button.class).isDisabled())).isTrue();
    }

    @Test
    void theInitiatorOfAFourEyesRunMayOnlyDenyIt(FxRobot robot) {
        console.requireFourEyes("release-notes-bot");
        openReleaseNotes(robot, console.user("maria"));

        assertThat(onFx(() -> robot.lookup(".card .banner-text").queryAs(Label.class).getText()))
                .isEqualTo("You started this run; someone else must approve it. You may deny it.");
        robot.clickOn(".verdict-approve");
        assertThat(submitText(robot)).isEqualTo("Submit: you may only deny your own run");
        assertThat(onFx(() -> robot.lookup(".submit").queryAs(Button.class).isDisabled())).isTrue();
        robot.clickOn(".verdict-deny");
        robot.clickOn(".submit");

        await(() -> toastSays(robot, "release-notes-bot: 1 call denied. The run completed."));
    }
}
