package io.countersign.console.main;

import static io.countersign.console.ConsoleFixtures.NOW;
import static io.countersign.console.ConsoleFixtures.approvalCard;
import static io.countersign.console.ConsoleFixtures.noService;
import static io.countersign.console.ConsoleFixtures.waiting;
import static io.countersign.console.ConsoleFixtures.write;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.MovableClock;
import io.countersign.console.card.ApprovalCardViewModel;
import io.countersign.console.card.CardSession;
import io.countersign.console.card.Verdict;
import io.countersign.console.common.ConnectionState;
import io.countersign.console.common.LiveClock;
import io.countersign.console.common.Messages;
import io.countersign.console.common.Theme;
import io.countersign.console.inbox.InboxViewModel;
import io.countersign.console.input.InputCardViewModel;
import io.countersign.console.newrun.NewRunViewModel;
import io.countersign.console.timeline.RunsViewModel;
import io.countersign.console.timeline.TimelineViewModel;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.state.RunStatus;
import io.countersign.service.RunService;
import io.countersign.engine.port.WaitingRun;
import io.countersign.tools.NetworkntSchemaValidator;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

class MainWindowViewModelTest {
    private static final WaitingRun NOTES = waiting("run-notes", "release-notes-bot", "maria", "fs_write", 4,
            RunStatus.WAITING_FOR_APPROVAL);
    private static final WaitingRun INTAKE = waiting("run-intake", "intake-form", "jonas", "ask_details", 2,
            RunStatus.WAITING_FOR_INPUT);

    // background work is dropped: these tests look at the window's state, not at the service
    private final Executor nowhere = work -> {
    };
    private final RunService service = noService();
    private final Actor maria = Actor.of("maria", Role.OPERATOR, Role.ADMIN);
    private final Messages messages = Messages.forLocale(Locale.ENGLISH);
    private final LiveClock clock = new LiveClock(new MovableClock(NOW));
    private final ConnectionState connection = new ConnectionState();
    private final InboxViewModel inbox = new InboxViewModel(service, maria, nowhere, clock, messages, connection);
    private final ApprovalCardViewModel approval = new ApprovalCardViewModel(
            new CardSession(service, maria, nowhere, clock, messages, connection));
    private final InputCardViewModel input = new InputCardViewModel(
            new CardSession(service, maria, nowhere, clock, messages, connection), new NetworkntSchemaValidator());
    private final MainWindowViewModel window = new MainWindowViewModel(inbox, approval, input,
            new TimelineViewModel(service, maria, nowhere, messages, connection, ZoneOffset.UTC),
            new RunsViewModel(service, maria, nowhere, messages, connection, ZoneOffset.UTC),
            new NewRunViewModel(service, maria, nowhere, messages), maria, "/tmp/countersign.db", Theme.LIGHT,
            messages, clock, connection, new DecisionSending(service, nowhere, this::later, Duration.ofSeconds(5)));
    /** What the window asked to do after the undo time, run when the test says so. */
    private final List<Runnable> afterUndoTime = new ArrayList<>();

    private Runnable later(Duration delay, Runnable action) {
        afterUndoTime.add(action);
        return () -> afterUndoTime.remove(action);
    }

    @Test
    void theTitleCarriesTheWaitingCountOnceTheInboxHasLoaded() {
        String loading = window.titleProperty().get();
        inbox.replace(List.of());
        String empty = window.titleProperty().get();

        inbox.replace(List.of(NOTES, INTAKE));

        assertThat(loading).isEqualTo("Countersign");
        assertThat(empty).isEqualTo("Countersign · nothing waiting");
        assertThat(window.titleProperty().get()).isEqualTo("Countersign · 2 waiting");
    }

    @Test
    void theStatusBarNamesStoreConnectionUserRolesAndTheme() {
        window.toggleTheme();

        assertThat(window.statusProperty().get())
                .isEqualTo("store: /tmp/countersign.db  ·  connected  ·  maria  ·  operator, admin  ·  dark");
    }

    @Test
    void anUnreachableStoreShowsInTheStatusBar() {
        connection.failed(new IllegalStateException("database is locked"));

        assertThat(window.statusProperty().get()).contains("not connected");
        assertThat(connection.problemProperty().get()).isEqualTo("database is locked");
    }

    @Test
    void choosingARunOpensTheCardOfItsKind() {
        inbox.replace(List.of(NOTES, INTAKE));

        inbox.select(NOTES);
        Detail approvalCard = window.detailProperty().get();
        inbox.select(INTAKE);

        assertThat(approvalCard).isEqualTo(new Detail.ApprovalCard("run-notes"));
        assertThat(window.detailProperty().get()).isEqualTo(new Detail.InputCard("run-intake"));
    }

    @Test
    void aRefreshedCardThatChangedSaysSoAndKeepsWhatThePersonEntered() {
        inbox.replace(List.of(NOTES));
        inbox.select(NOTES);
        approval.show(approvalCard("run-notes", List.of(write(0, "NOTES.md")), List.of()));
        approval.approveAll();

        inbox.replace(List.of(new WaitingRun(NOTES.runId(), NOTES.status(), NOTES.agent(), NOTES.initiator(),
                NOTES.prompt(), NOTES.waitingSince(), NOTES.waitingTools(), 0, "digest-changed", null, null, true,
                false)));

        assertThat(approval.session().bannerProperty().get().text()).isEqualTo("This card changed since you opened it.");
        assertThat(approval.calls().get(0).verdict()).isEqualTo(Verdict.APPROVE);
    }

    @Test
    void aRunThatNowWaitsForInputOpensTheInputCard() {
        inbox.replace(List.of(NOTES));
        inbox.select(NOTES);

        inbox.replace(List.of(new WaitingRun(NOTES.runId(), RunStatus.WAITING_FOR_INPUT, NOTES.agent(),
                NOTES.initiator(), NOTES.prompt(), NOTES.waitingSince(), List.of("ask_details"), 0, "d2")));

        assertThat(window.detailProperty().get()).isEqualTo(new Detail.InputCard("run-notes"));
    }

    @Test
    void nextOpensTheOldestCardFirst() {
        inbox.replace(List.of(INTAKE, NOTES));

        window.next();

        assertThat(window.detailProperty().get()).isEqualTo(new Detail.ApprovalCard("run-notes"));
    }

    @Test
    void escapeFromATimelineGoesBackToTheCard() {
        inbox.replace(List.of(NOTES));
        inbox.select(NOTES);

        window.openTimeline("run-notes");
        Detail timeline = window.detailProperty().get();
        window.back();

        assertThat(timeline).isEqualTo(new Detail.Timeline("run-notes", new Detail.ApprovalCard("run-notes")));
        assertThat(window.detailProperty().get()).isEqualTo(new Detail.ApprovalCard("run-notes"));
    }

    @Test
    void aSubmittedCardLeavesTheNextOpensAndAToastOffersUndoUntilTheDecisionIsSent() {
        WaitingRun fetch = waiting("run-fetch", "web-research", "maria", "web_fetch", 1,
                RunStatus.WAITING_FOR_APPROVAL);
        inbox.replace(List.of(NOTES, fetch));
        inbox.select(NOTES);
        approval.show(approvalCard("run-notes", List.of(write(0, "NOTES.md"), write(1, "OLD.md")), List.of()));
        approval.toggle(1);
        approval.toggle(2);
        approval.toggle(2);

        approval.submit();

        assertThat(window.detailProperty().get()).isEqualTo(new Detail.ApprovalCard("run-fetch"));
        assertThat(inbox.allRuns()).containsExactly(fetch);
        assertThat(window.toasts()).singleElement().satisfies(toast -> {
            assertThat(toast.text()).isEqualTo("Approving 1, denying 1 of release-notes-bot in 5 s.");
            assertThat(toast.link()).isEqualTo(Toast.Link.UNDO);
        });
        // a refresh that still lists the held run does not bring it back
        inbox.replace(List.of(NOTES, fetch));
        assertThat(inbox.allRuns()).containsExactly(fetch);

        afterUndoTime.get(0).run();

        assertThat(window.toasts()).singleElement().satisfies(toast -> {
            assertThat(toast.text()).isEqualTo("Approving 1, denying 1 of release-notes-bot…");
            assertThat(toast.link()).as("too late to undo").isEqualTo(Toast.Link.NONE);
        });
        assertThat(afterUndoTime).isEmpty();
    }

    @Test
    void anUndoSendsNothingAndOpensTheCardAgain() {
        inbox.replace(List.of(NOTES));
        inbox.select(NOTES);
        approval.show(approvalCard("run-notes", List.of(write(0, "NOTES.md")), List.of()));
        approval.approveAll();
        approval.submit();
        assertThat(window.detailProperty().get()).isEqualTo(new Detail.Empty());

        window.undo(window.toasts().get(0));

        assertThat(afterUndoTime).as("nothing left to send").isEmpty();
        assertThat(window.toasts()).isEmpty();
        assertThat(inbox.allRuns()).containsExactly(NOTES);
        assertThat(window.detailProperty().get()).isEqualTo(new Detail.ApprovalCard("run-notes"));
    }

    @Test
    void newRunsAreAnnouncedOnlyWhileTheWindowIsNotFocused() {
        inbox.replace(List.of(NOTES));
        inbox.replace(List.of(NOTES, INTAKE));
        boolean quietWhileFocused = window.toasts().isEmpty();
        window.windowFocusedProperty().set(false);
        WaitingRun fetch = waiting("run-fetch", "web-research", "maria", "web_fetch", 1,
                RunStatus.WAITING_FOR_APPROVAL);

        inbox.replace(List.of(NOTES, INTAKE, fetch));

        assertThat(quietWhileFocused).isTrue();
        assertThat(window.toasts()).extracting(Toast::text)
                .containsExactly("New in the inbox: web-research web_fetch");
    }

    @Test
    void keysForTheApprovalCardDoNothingOnAnInputCard() {
        inbox.replace(List.of(INTAKE));
        inbox.select(INTAKE);
        approval.show(approvalCard("run-notes", List.of(write(0, "NOTES.md")), List.of()));

        window.cards().approveAll();

        assertThat(approval.calls().get(0).verdict()).isEqualTo(Verdict.UNDECIDED);
    }
}
