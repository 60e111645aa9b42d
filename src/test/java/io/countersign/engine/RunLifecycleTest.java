package io.countersign.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import io.countersign.engine.run.RunLifecycle;
import io.countersign.engine.run.RunLifecycle.Event;
import io.countersign.engine.run.RunLifecycle.State;
import io.countersign.engine.run.RunLifecycle.Transition;
import io.countersign.engine.state.RunStatus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class RunLifecycleTest {
    private static final RunLifecycle LIFECYCLE = RunLifecycle.table();
    /** The diagram's page; {@code -Dlifecycle.write=true} writes it anew from the table. */
    private static final Path PAGE = Path.of("docs/lifecycle.md");

    @Test
    void theDiagramInTheDocsIsDrawnFromTheTable() throws IOException {
        String drawn = page();
        if (Boolean.getBoolean("lifecycle.write")) {
            Files.writeString(PAGE, drawn, StandardCharsets.UTF_8);
        }
        assertThat(Files.readString(PAGE, StandardCharsets.UTF_8))
                .as("docs/lifecycle.md is drawn from RunLifecycle; run this test with -Dlifecycle.write=true")
                .isEqualTo(drawn);
    }

    @Test
    void aDecisionTakesAWaitingCardToItsClaim() {
        assertThat(LIFECYCLE.next(State.WAITING_FOR_APPROVAL, Event.DECISION)).isEqualTo(State.CLAIMED);
        assertThat(LIFECYCLE.next(State.WAITING_FOR_INPUT, Event.QUEUED_DECISION)).isEqualTo(State.DECISION_QUEUED);
    }

    @Test
    void anImpossibleTransitionNamesTheStateAndTheEvent() {
        assertThatThrownBy(() -> LIFECYCLE.next(State.COMPLETED, Event.DECISION))
                .isInstanceOf(RunLifecycle.ImpossibleTransitionException.class)
                .hasMessage("a run that is completed cannot take a decision (it has ended)");
        assertThatThrownBy(() -> LIFECYCLE.next("r1", State.RUNNING, Event.HAND_BACK))
                .hasMessageStartingWith("run r1: a run that is running cannot be handed back (it can only ");
    }

    @Test
    void aRunFlaggedWithAnUnknownOutcomeWaitsForAPersonOnly() {
        Set<Event> out = LIFECYCLE.transitions().stream().filter(t -> t.from() == State.OUTCOME_UNKNOWN)
                .map(Transition::event).collect(Collectors.toSet());
        assertThat(out).containsExactlyInAnyOrder(Event.SETTLE_RETRY_APPROVAL, Event.SETTLE_RETRY_INPUT,
                Event.SETTLE_FAIL, Event.GATEWAY_STOP);
    }

    @Test
    void everyStateIsReachedAndEveryUnfinishedOneCanMoveOn() {
        Set<State> reached = EnumSet.of(State.NEW);
        Deque<State> next = new ArrayDeque<>(reached);
        while (!next.isEmpty()) {
            State from = next.pop();
            LIFECYCLE.transitions().stream().filter(t -> t.from() == from).map(Transition::to)
                    .filter(reached::add).forEach(next::push);
        }
        assertThat(reached).containsExactlyInAnyOrder(State.values());
        for (State state : State.values()) {
            boolean finished = state.status().filter(RunStatus::finished).isPresent();
            assertThat(LIFECYCLE.transitions().stream().anyMatch(t -> t.from() == state))
                    .as("whether a run that is %s can move on", state.label()).isEqualTo(!finished);
        }
    }

    @Test
    void aStoredRunsStateIsReadFromItsStatusItsDecisionAndItsHolder() {
        assertThat(State.of(RunStatus.RUNNING, false, true)).isEqualTo(State.RUNNING);
        assertThat(State.of(RunStatus.RUNNING, true, true)).isEqualTo(State.CLAIMED);
        assertThat(State.of(RunStatus.RUNNING, true, false)).isEqualTo(State.HANDED_BACK);
        assertThat(State.of(RunStatus.QUEUED, true, false)).isEqualTo(State.DECISION_QUEUED);
        assertThat(State.of(RunStatus.OUTCOME_UNKNOWN, true, false)).isEqualTo(State.OUTCOME_UNKNOWN);
        for (State state : State.values()) {
            state.status().ifPresent(status -> assertThat(State.of(status, state == State.CLAIMED
                    || state == State.HANDED_BACK || state == State.DECISION_QUEUED, state != State.HANDED_BACK)
                    .status()).contains(status));
        }
    }

    /** The page as the table draws it: what it is, the diagram, and every transition in a table. */
    private static String page() {
        StringBuilder text = new StringBuilder("""
                # The run's lifecycle

                <!-- Drawn from io.countersign.engine.run.RunLifecycle by RunLifecycleTest; do not edit by hand. -->

                Where a run stands and the events that move it, each transition defined once in `RunLifecycle`.
                The store asks the table before a transition it makes under the run's lock (a claim, a release, a
                hand-back, a take-over, a recovery, an outcome, a settling): an impossible one is an error naming the
                state and the event, and nothing changes. The guard is the condition the store's statement checks
                atomically; the table is the readable account of it.

                A run `running` in the store is driven by its loop (*running*), carries out a committed decision
                (*claimed*), or waits, decided, for a process that can carry it out (*handed back*). A run stopped with
                a call whose outcome is unknown has the status `outcome_unknown`, for a person to settle.

                ```mermaid
                """);
        text.append(LIFECYCLE.mermaid()).append("```\n\n| from | event | to | guard |\n| --- | --- | --- | --- |\n");
        for (Transition transition : LIFECYCLE.transitions()) {
            text.append("| ").append(transition.from().label()).append(" | ")
                    .append(transition.event().name().toLowerCase().replace('_', ' ')).append(" | ")
                    .append(transition.to().label()).append(" | ")
                    .append(transition.guard() == null ? "" : transition.guard()).append(" |\n");
        }
        return text.toString();
    }
}
