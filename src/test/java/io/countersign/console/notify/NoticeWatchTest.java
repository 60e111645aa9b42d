package io.countersign.console.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import io.countersign.console.MovableClock;
import io.countersign.console.common.LiveClock;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.agent.DeadlineAction;
import io.countersign.engine.agent.RunDeadline;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.port.WaitingRun;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import org.junit.jupiter.api.Test;

/** Which cards the console announces on the desktop, and when it keeps quiet. */
class NoticeWatchTest {
    private static final Instant START = Instant.parse("2026-12-02T09:00:00Z");
    private static final Actor MARIA = Actor.of("maria", Role.OPERATOR);
    private static final Actor ADA = Actor.of("ada", Role.OPERATOR, Role.ADMIN);
    private static final WaitingRun NOTES = run("run-notes", "release-notes", "fs_write", null);

    private final ObservableList<WaitingRun> runs = FXCollections.observableArrayList();
    private final SimpleBooleanProperty loaded = new SimpleBooleanProperty();
    private final MovableClock time = new MovableClock(START);
    private final LiveClock clock = new LiveClock(time);
    private boolean quiet;
    private final List<Notice> announced = new ArrayList<>();
    private final List<String> gone = new ArrayList<>();

    private NoticeWatch watch(Actor person) {
        return new NoticeWatch(runs, loaded, person, clock, () -> quiet, announced::add, gone::add);
    }

    /** The inbox's first load, as the inbox view model does it: the rows, then loaded. */
    private void firstLoad(WaitingRun... shown) {
        runs.setAll(shown);
        loaded.set(true);
    }

    @Test
    void aCardThatStartsWaitingIsAnnouncedWithItsAgentToolAndInitiator() {
        watch(MARIA);
        firstLoad(NOTES);

        runs.add(run("run-fetch", "web-research", "web_fetch", null));

        assertThat(announced).containsExactly(new Notice("run-fetch", Notice.Reason.WAITING, false, "web-research",
                List.of("web_fetch"), "jonas", null));
    }

    @Test
    void theCardsOfTheFirstLoadAreNotNew() {
        watch(MARIA);

        firstLoad(NOTES, run("run-fetch", "web-research", "web_fetch", null));

        assertThat(announced).isEmpty();
    }

    @Test
    void nothingIsAnnouncedWhileQuietAndACardThatArrivedThenStaysUnannounced() {
        watch(MARIA);
        firstLoad(NOTES);
        quiet = true;
        runs.add(run("run-fetch", "web-research", "web_fetch", null));
        quiet = false;

        runs.set(1, runs.get(1));
        runs.add(run("run-intake", "intake", "intake_form", null));

        assertThat(announced).extracting(Notice::runId).containsExactly("run-intake");
    }

    @Test
    void aRunThatPausesAgainIsANewCard() {
        watch(MARIA);
        firstLoad(NOTES);
        runs.clear();

        runs.add(new WaitingRun("run-notes", RunStatus.WAITING_FOR_APPROVAL, "release-notes", "maria",
                "Draft the notes", START.plusSeconds(30), List.of("fs_write"), 0, "d2", null, null, true, false));

        assertThat(announced).extracting(Notice::runId).containsExactly("run-notes");
        assertThat(gone).containsExactly("run-notes");
    }

    @Test
    void anEscalationIsAnnouncedOnceToThoseWhoHoldTheEscalationRole() {
        List<Notice> toMaria = new ArrayList<>();
        new NoticeWatch(runs, loaded, MARIA, clock, () -> false, toMaria::add, id -> { });
        watch(ADA);
        WaitingRun due = run("run-notes", "release-notes", "fs_write", deadline(Duration.ofMinutes(30), false));
        firstLoad(due);

        runs.set(0, due.withDeadline(deadline(Duration.ofMinutes(60), true)));
        runs.set(0, due.withDeadline(deadline(Duration.ofMinutes(59), true)));

        assertThat(announced).singleElement().satisfies(notice -> {
            assertThat(notice.reason()).isEqualTo(Notice.Reason.ESCALATED);
            assertThat(notice.left()).isEqualTo("1h 00m");
        });
        assertThat(toMaria).isEmpty();
    }

    @Test
    void aNearDeadlineIsAnnouncedOnceUnderATenthOfItsSpanLeft() {
        watch(MARIA);
        firstLoad(run("run-notes", "release-notes", "fs_write", deadline(Duration.ofMinutes(30), false)));

        moveOn(Duration.ofMinutes(26));
        boolean quietWithFourMinutesLeft = announced.isEmpty();
        moveOn(Duration.ofSeconds(90));
        moveOn(Duration.ofSeconds(30));

        assertThat(quietWithFourMinutesLeft).isTrue();
        assertThat(announced).extracting(Notice::runId, Notice::reason, Notice::left)
                .containsExactly(tuple("run-notes", Notice.Reason.DEADLINE_NEAR, "2m 30s"));
    }

    @Test
    void aShortDeadlineIsNearUnderAMinuteLeft() {
        watch(MARIA);
        firstLoad(run("run-notes", "release-notes", "fs_write", new RunDeadline(START.plusSeconds(90),
                Duration.ofSeconds(90), DeadlineAction.DENY, false, Role.ADMIN, null, null)));

        moveOn(Duration.ofSeconds(20));
        boolean quietWithSeventySecondsLeft = announced.isEmpty();
        moveOn(Duration.ofSeconds(15));

        assertThat(quietWithSeventySecondsLeft).isTrue();
        assertThat(announced).extracting(Notice::left).containsExactly("55s");
    }

    @Test
    void aNearDeadlineMissedAtTheWindowIsAnnouncedOnceThePersonLeavesIt() {
        watch(MARIA);
        firstLoad(run("run-notes", "release-notes", "fs_write", deadline(Duration.ofMinutes(1), false)));
        quiet = true;
        moveOn(Duration.ofSeconds(10));

        quiet = false;
        moveOn(Duration.ofSeconds(5));
        moveOn(Duration.ofSeconds(5));

        assertThat(announced).extracting(Notice::reason).containsExactly(Notice.Reason.DEADLINE_NEAR);
    }

    @Test
    void anOverdueCardIsNotAnnouncedAsNear() {
        watch(MARIA);
        firstLoad(run("run-notes", "release-notes", "fs_write", deadline(Duration.ofMinutes(30), false)));

        moveOn(Duration.ofMinutes(31));

        assertThat(announced).isEmpty();
    }

    @Test
    void aCardThatArrivesNearItsDeadlineIsAnnouncedOnce() {
        watch(MARIA);
        firstLoad(NOTES);

        runs.add(run("run-fetch", "web-research", "web_fetch", deadline(Duration.ofSeconds(40), false)));
        moveOn(Duration.ofSeconds(5));

        assertThat(announced).extracting(Notice::reason, Notice::left)
                .containsExactly(tuple(Notice.Reason.WAITING, "40s"));
    }

    @Test
    void aDamagedRunIsNotAnnounced() {
        watch(MARIA);
        firstLoad(NOTES);

        runs.add(WaitingRun.damaged("run-broken", RunStatus.WAITING_FOR_APPROVAL, "release-notes", "maria", "Draft",
                START, "the paused state does not decode"));

        assertThat(announced).isEmpty();
    }

    @Test
    void aCardThatLeavesTheInboxIsReportedGoneAndARefreshedOneIsNot() {
        watch(MARIA);
        WaitingRun fetch = run("run-fetch", "web-research", "web_fetch", null);
        firstLoad(NOTES, fetch);

        runs.set(1, fetch.withDeadline(deadline(Duration.ofMinutes(5), false)));
        runs.remove(0);

        assertThat(gone).containsExactly("run-notes");
    }

    @Test
    void aStoppedWatchAnnouncesNothing() {
        NoticeWatch watch = watch(MARIA);
        firstLoad(NOTES);

        watch.stop();
        runs.add(run("run-fetch", "web-research", "web_fetch", null));

        assertThat(announced).isEmpty();
    }

    private void moveOn(Duration duration) {
        time.advance(duration);
        clock.tick();
    }

    private static RunDeadline deadline(Duration left, boolean escalated) {
        return new RunDeadline(START.plus(left), Duration.ofMinutes(30), DeadlineAction.ESCALATE, escalated,
                Role.ADMIN, null, null);
    }

    private static WaitingRun run(String runId, String agent, String tool, RunDeadline deadline) {
        return new WaitingRun(runId, RunStatus.WAITING_FOR_APPROVAL, agent, runId.equals("run-notes") ? "maria"
                : "jonas", "The prompt, which a notice never shows", START, List.of(tool), 0, "d1", null, deadline,
                true, false);
    }
}
