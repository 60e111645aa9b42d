package io.countersign.console.inbox;

import static io.countersign.console.ConsoleFixtures.NOW;
import static io.countersign.console.ConsoleFixtures.noService;
import static io.countersign.console.ConsoleFixtures.waiting;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.console.MovableClock;
import io.countersign.console.common.ConnectionState;
import io.countersign.console.common.LiveClock;
import io.countersign.console.common.Messages;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.port.WaitingRun;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javafx.collections.ListChangeListener;
import org.junit.jupiter.api.Test;

class InboxViewModelTest {
    private static final WaitingRun NOTES = waiting("run-notes", "release-notes-bot", "maria", "fs_write", 4,
            RunStatus.WAITING_FOR_APPROVAL);
    private static final WaitingRun INTAKE = waiting("run-intake", "intake-form", "jonas", "ask_details", 2,
            RunStatus.WAITING_FOR_INPUT);
    private static final WaitingRun FETCH = waiting("run-fetch", "web-research", "maria", "web_fetch", 1,
            RunStatus.WAITING_FOR_APPROVAL);

    private final MovableClock clock = new MovableClock(NOW);
    private final LiveClock liveClock = new LiveClock(clock);
    private final InboxViewModel inbox = new InboxViewModel(noService(), Actor.of("maria", Role.OPERATOR),
            work -> {
            }, liveClock, Messages.forLocale(Locale.ENGLISH), new ConnectionState());

    private List<String> shown() {
        return inbox.visibleRuns().stream().map(WaitingRun::runId).toList();
    }

    @Test
    void listsTheOldestFirst() {
        inbox.replace(List.of(FETCH, NOTES, INTAKE));

        assertThat(shown()).containsExactly("run-notes", "run-intake", "run-fetch");
    }

    @Test
    void theSearchMatchesAgentPersonToolAndPromptWithEveryWord() {
        inbox.replace(List.of(NOTES, INTAKE, FETCH));

        inbox.searchProperty().set("maria WEB");

        assertThat(shown()).containsExactly("run-fetch");
    }

    @Test
    void agentToolAndKindFiltersNarrowTheList() {
        inbox.replace(List.of(NOTES, INTAKE, FETCH));

        inbox.kindProperty().set(InboxKind.APPROVAL);
        List<String> approvals = shown();
        inbox.agentProperty().set("web-research");
        List<String> fromResearch = shown();
        inbox.agentProperty().set(null);
        inbox.toolProperty().set("fs_write");

        assertThat(approvals).containsExactly("run-notes", "run-fetch");
        assertThat(fromResearch).containsExactly("run-fetch");
        assertThat(shown()).containsExactly("run-notes");
    }

    @Test
    void clearingTheFiltersShowsEverything() {
        inbox.replace(List.of(NOTES, INTAKE, FETCH));
        inbox.searchProperty().set("nothing matches this");
        inbox.kindProperty().set(InboxKind.INPUT);

        inbox.clearFilters();

        assertThat(shown()).hasSize(3);
        assertThat(inbox.filteredProperty().get()).isFalse();
    }

    @Test
    void theHeaderCountsWhatIsShown() {
        inbox.replace(List.of(NOTES, INTAKE, FETCH));
        String all = inbox.headerProperty().get();

        inbox.kindProperty().set(InboxKind.INPUT);

        assertThat(all).isEqualTo("Inbox · 3 waiting");
        assertThat(inbox.headerProperty().get()).isEqualTo("Inbox · 1 of 3 shown");
    }

    @Test
    void theFilterChoicesFollowTheRuns() {
        inbox.replace(List.of(NOTES, INTAKE, FETCH));

        assertThat(inbox.agents()).containsExactly("intake-form", "release-notes-bot", "web-research");
        assertThat(inbox.tools()).containsExactly("ask_details", "fs_write", "web_fetch");
    }

    @Test
    void aRefreshKeepsTheSelection() {
        inbox.replace(List.of(NOTES, FETCH));
        inbox.select(FETCH);

        inbox.replace(List.of(NOTES, INTAKE, FETCH));

        assertThat(inbox.selectedProperty().get()).isEqualTo(FETCH);
        assertThat(shown()).containsExactly("run-notes", "run-intake", "run-fetch");
    }

    @Test
    void aSelectedRunThatLeftTheInboxIsNoLongerSelected() {
        inbox.replace(List.of(NOTES, FETCH));
        inbox.select(NOTES);

        inbox.replace(List.of(FETCH));

        assertThat(inbox.selectedProperty().get()).isNull();
    }

    @Test
    void aSelectionTheListMakesWhileRowsComeAndGoIsIgnored() {
        inbox.replace(List.of(NOTES, INTAKE));
        inbox.select(NOTES);
        // a list view moves its selection to a neighbour when the selected row goes
        inbox.visibleRuns().addListener((ListChangeListener<WaitingRun>) change ->
                inbox.select(inbox.visibleRuns().isEmpty() ? null : inbox.visibleRuns().get(0)));

        inbox.replace(List.of(INTAKE));

        assertThat(inbox.selectedProperty().get()).isNull();
    }

    @Test
    void runsThatArriveAfterTheFirstLoadAreAnnounced() {
        List<List<WaitingRun>> announced = new ArrayList<>();
        inbox.setArrivalListener(announced::add);

        inbox.replace(List.of(NOTES));
        inbox.replace(List.of(NOTES, FETCH));

        assertThat(announced).containsExactly(List.of(FETCH));
    }

    @Test
    void aRunThatPausesAgainIsAnnouncedAgain() {
        List<List<WaitingRun>> announced = new ArrayList<>();
        inbox.setArrivalListener(announced::add);
        inbox.replace(List.of(NOTES));
        WaitingRun pausedAgain = new WaitingRun(NOTES.runId(), RunStatus.WAITING_FOR_INPUT, NOTES.agent(),
                NOTES.initiator(), NOTES.prompt(), NOW, List.of("ask_details"), 0, "digest-2");

        inbox.replace(List.of(pausedAgain));

        assertThat(announced).containsExactly(List.of(pausedAgain));
        assertThat(inbox.visibleRuns()).containsExactly(pausedAgain);
    }

    @Test
    void nextAndPreviousMoveThroughTheVisibleList() {
        inbox.replace(List.of(NOTES, INTAKE, FETCH));
        inbox.kindProperty().set(InboxKind.APPROVAL);

        inbox.selectNext();
        WaitingRun first = inbox.selectedProperty().get();
        inbox.selectNext();
        WaitingRun second = inbox.selectedProperty().get();
        inbox.selectNext();
        WaitingRun stillSecond = inbox.selectedProperty().get();
        inbox.selectPrevious();

        assertThat(List.of(first, second, stillSecond)).containsExactly(NOTES, FETCH, FETCH);
        assertThat(inbox.selectedProperty().get()).isEqualTo(NOTES);
    }

    @Test
    void aRunDecidedHereLeavesAndTheNextIsSelected() {
        inbox.replace(List.of(NOTES, INTAKE, FETCH));
        inbox.select(INTAKE);

        inbox.removeAndAdvance("run-intake");

        assertThat(shown()).containsExactly("run-notes", "run-fetch");
        assertThat(inbox.selectedProperty().get()).isEqualTo(FETCH);
    }

    @Test
    void aRunDecidedHereThatARefreshAlreadyTookAwayStillAdvancesToTheNext() {
        inbox.replace(List.of(NOTES, INTAKE, FETCH));
        inbox.select(INTAKE);
        inbox.replace(List.of(NOTES, FETCH));

        inbox.removeAndAdvance("run-intake");

        assertThat(inbox.selectedProperty().get()).isEqualTo(FETCH);
    }

    @Test
    void theLastRunDecidedLeavesNothingSelected() {
        inbox.replace(List.of(NOTES));
        inbox.select(NOTES);

        inbox.removeAndAdvance("run-notes");

        assertThat(inbox.selectedProperty().get()).isNull();
    }

    @Test
    void theWaitingTimeFollowsTheLiveClock() {
        String before = inbox.waitingFor(NOTES);

        clock.advance(Duration.ofMinutes(61));
        liveClock.tick();

        assertThat(before).isEqualTo("4 min");
        assertThat(inbox.waitingFor(NOTES)).isEqualTo("1 h 5 min");
    }
}
