package io.countersign.engine.run;

import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.state.RunStatus;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The run's lifecycle as one table of transitions: where a run can stand, the events that move it, and where each
 * event takes it from each state. Every transition is defined once, here; the store asks the table before it makes
 * one ({@link #next}), and {@code docs/lifecycle.md} is drawn from it ({@link #mermaid}).
 *
 * <p>A state is finer than a {@link RunStatus}: a run {@code running} is driven by its loop, carries out a
 * committed decision, or waits, decided, for a process that can carry it out. A transition's guard names the
 * condition the store checks atomically in the statement that makes it (a card's digest, a passed deadline); the
 * table is the readable account of it, the statement the one that holds under concurrency.
 */
public final class RunLifecycle {
    /** Where a run stands. */
    public enum State {
        /** Not yet recorded: a run's first event creates it. */
        NEW("new", null),
        /** Waits in the queue for a worker to run it from its start. */
        QUEUED("queued", RunStatus.QUEUED),
        /** Driven by its loop, on no decision. */
        RUNNING("running", RunStatus.RUNNING),
        WAITING_FOR_APPROVAL("waiting for approval", RunStatus.WAITING_FOR_APPROVAL),
        WAITING_FOR_INPUT("waiting for input", RunStatus.WAITING_FOR_INPUT),
        /** A decision on its card is committed, and a driver carries it out. */
        CLAIMED("claimed", RunStatus.RUNNING),
        /** A decision on its card is committed and queued for a worker. */
        DECISION_QUEUED("decision queued", RunStatus.QUEUED),
        /** A decision on its card is committed, and no process holds it: it waits for one that can carry it out. */
        HANDED_BACK("handed back", RunStatus.RUNNING),
        /** Stopped with a call whose outcome nobody knows: a person settles it. */
        OUTCOME_UNKNOWN("outcome unknown", RunStatus.OUTCOME_UNKNOWN),
        COMPLETED("completed", RunStatus.COMPLETED),
        FAILED("failed", RunStatus.FAILED),
        CANCELLED("cancelled", RunStatus.CANCELLED);

        private final String label;
        private final RunStatus status;

        State(String label, RunStatus status) {
            this.label = label;
            this.status = status;
        }

        /** The state in words, as errors and the diagram say it. */
        public String label() {
            return label;
        }

        /** The status a run in this state has; empty for {@link #NEW}. */
        public Optional<RunStatus> status() {
            return Optional.ofNullable(status);
        }

        /**
         * The state of a stored run: its status, whether it carries a committed decision, and whether a process (a
         * driver or a worker) holds it.
         */
        public static State of(RunStatus status, boolean decided, boolean held) {
            return switch (Objects.requireNonNull(status, "status")) {
                case QUEUED -> decided ? DECISION_QUEUED : QUEUED;
                case RUNNING -> !decided ? RUNNING : held ? CLAIMED : HANDED_BACK;
                case WAITING_FOR_APPROVAL -> WAITING_FOR_APPROVAL;
                case WAITING_FOR_INPUT -> WAITING_FOR_INPUT;
                case OUTCOME_UNKNOWN -> OUTCOME_UNKNOWN;
                case COMPLETED -> COMPLETED;
                case FAILED -> FAILED;
                case CANCELLED -> CANCELLED;
            };
        }
    }

    /** What moves a run; each reads as what a run does ("a run that is completed cannot take a decision"). */
    public enum Event {
        START("start"),
        QUEUE("be queued"),
        WORKER_CLAIM("be taken by a worker"),
        PAUSE_FOR_APPROVAL("pause for approval"),
        PAUSE_FOR_INPUT("pause for input"),
        DECISION("take a decision"),
        QUEUED_DECISION("take a decision for a worker"),
        APPROVAL_COUNTED("count an approval"),
        DEADLINE_FALLBACK("take its deadline's fallback"),
        ESCALATION("be escalated"),
        EXTENSION("have its deadline extended"),
        HOST_CANCELLATION("have its call withdrawn by its host"),
        HOST_DISCONNECT("lose its host"),
        RELEASE_TO_APPROVAL("be put back to waiting for approval"),
        RELEASE_TO_INPUT("be put back to waiting for input"),
        HAND_BACK("be handed back"),
        TAKE_OVER("be taken over"),
        RECOVERY("be recovered from a stopped process"),
        LEASE_LAPSE("be taken back from a stopped worker"),
        INTERRUPTION("end as interrupted"),
        OUTCOME_UNKNOWN("be flagged with an unknown outcome"),
        GATEWAY_STOP("end for its stopped gateway"),
        SETTLE_RETRY_APPROVAL("be settled by showing its approval card again"),
        SETTLE_RETRY_INPUT("be settled by showing its input card again"),
        SETTLE_FAIL("be settled as failed"),
        COMPLETE("complete"),
        FAIL("fail"),
        CANCEL("be cancelled");

        private final String verb;

        Event(String verb) {
            this.verb = verb;
        }

        /** What the event does to a run, as an error says it. */
        public String verb() {
            return verb;
        }
    }

    /** One row of the table: {@code event} takes a run in {@code from} to {@code to}, when {@code guard} holds. */
    public record Transition(State from, Event event, State to, String guard) {
        public Transition {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(event, "event");
            Objects.requireNonNull(to, "to");
        }
    }

    private static final String DIGEST = "the card's digest is the one decided on";
    private static final String NO_OUTCOME = "a call's intent has no outcome";

    private static final RunLifecycle TABLE = new RunLifecycle()
            .add(State.NEW, Event.START, State.RUNNING, null)
            .add(State.NEW, Event.QUEUE, State.QUEUED, null)
            .add(State.QUEUED, Event.WORKER_CLAIM, State.RUNNING, null)
            .add(State.DECISION_QUEUED, Event.WORKER_CLAIM, State.CLAIMED, null)
            .add(State.RUNNING, Event.PAUSE_FOR_APPROVAL, State.WAITING_FOR_APPROVAL, null)
            .add(State.CLAIMED, Event.PAUSE_FOR_APPROVAL, State.WAITING_FOR_APPROVAL, null)
            .add(State.RUNNING, Event.PAUSE_FOR_INPUT, State.WAITING_FOR_INPUT, null)
            .add(State.CLAIMED, Event.PAUSE_FOR_INPUT, State.WAITING_FOR_INPUT, null)
            .add(State.WAITING_FOR_APPROVAL, Event.DECISION, State.CLAIMED, DIGEST)
            .add(State.WAITING_FOR_INPUT, Event.DECISION, State.CLAIMED, DIGEST)
            .add(State.WAITING_FOR_APPROVAL, Event.QUEUED_DECISION, State.DECISION_QUEUED, DIGEST)
            .add(State.WAITING_FOR_INPUT, Event.QUEUED_DECISION, State.DECISION_QUEUED, DIGEST)
            .add(State.WAITING_FOR_APPROVAL, Event.APPROVAL_COUNTED, State.WAITING_FOR_APPROVAL,
                    "fewer approvals than the quorum")
            .add(State.WAITING_FOR_APPROVAL, Event.DEADLINE_FALLBACK, State.CLAIMED, "the deadline passed")
            .add(State.WAITING_FOR_INPUT, Event.DEADLINE_FALLBACK, State.CLAIMED, "the deadline passed")
            .add(State.WAITING_FOR_APPROVAL, Event.ESCALATION, State.WAITING_FOR_APPROVAL,
                    "overdue and not escalated")
            .add(State.WAITING_FOR_INPUT, Event.ESCALATION, State.WAITING_FOR_INPUT, "overdue and not escalated")
            .add(State.WAITING_FOR_APPROVAL, Event.EXTENSION, State.WAITING_FOR_APPROVAL, "not extended")
            .add(State.WAITING_FOR_INPUT, Event.EXTENSION, State.WAITING_FOR_INPUT, "not extended")
            .add(State.WAITING_FOR_APPROVAL, Event.HOST_CANCELLATION, State.CLAIMED,
                    "the host's call waits on the card")
            .add(State.WAITING_FOR_APPROVAL, Event.HOST_DISCONNECT, State.CLAIMED, null)
            .add(State.WAITING_FOR_INPUT, Event.HOST_DISCONNECT, State.CLAIMED, null)
            .add(State.CLAIMED, Event.RELEASE_TO_APPROVAL, State.WAITING_FOR_APPROVAL, "nothing executed")
            .add(State.CLAIMED, Event.RELEASE_TO_INPUT, State.WAITING_FOR_INPUT, "nothing executed")
            .add(State.CLAIMED, Event.HAND_BACK, State.HANDED_BACK, null)
            .add(State.HANDED_BACK, Event.TAKE_OVER, State.CLAIMED, null)
            .add(State.CLAIMED, Event.RECOVERY, State.CLAIMED, "its process stopped, no call started")
            .add(State.HANDED_BACK, Event.RECOVERY, State.CLAIMED, "no call started")
            .add(State.RUNNING, Event.LEASE_LAPSE, State.QUEUED, "no call started")
            .add(State.CLAIMED, Event.LEASE_LAPSE, State.DECISION_QUEUED, "no call started")
            .add(State.RUNNING, Event.INTERRUPTION, State.FAILED, "its process stopped")
            .add(State.RUNNING, Event.OUTCOME_UNKNOWN, State.OUTCOME_UNKNOWN, NO_OUTCOME)
            .add(State.CLAIMED, Event.OUTCOME_UNKNOWN, State.OUTCOME_UNKNOWN, NO_OUTCOME)
            .add(State.HANDED_BACK, Event.OUTCOME_UNKNOWN, State.OUTCOME_UNKNOWN, NO_OUTCOME)
            .add(State.WAITING_FOR_APPROVAL, Event.GATEWAY_STOP, State.FAILED, null)
            .add(State.WAITING_FOR_INPUT, Event.GATEWAY_STOP, State.FAILED, null)
            .add(State.RUNNING, Event.GATEWAY_STOP, State.FAILED, "no call started")
            .add(State.CLAIMED, Event.GATEWAY_STOP, State.FAILED, "no call started")
            .add(State.HANDED_BACK, Event.GATEWAY_STOP, State.FAILED, null)
            .add(State.OUTCOME_UNKNOWN, Event.GATEWAY_STOP, State.FAILED, "settled with retry")
            .add(State.OUTCOME_UNKNOWN, Event.SETTLE_RETRY_APPROVAL, State.WAITING_FOR_APPROVAL, null)
            .add(State.OUTCOME_UNKNOWN, Event.SETTLE_RETRY_INPUT, State.WAITING_FOR_INPUT, null)
            .add(State.OUTCOME_UNKNOWN, Event.SETTLE_FAIL, State.FAILED, null)
            .add(State.WAITING_FOR_APPROVAL, Event.SETTLE_FAIL, State.FAILED, "its paused state is damaged")
            .add(State.WAITING_FOR_INPUT, Event.SETTLE_FAIL, State.FAILED, "its paused state is damaged")
            .add(State.RUNNING, Event.COMPLETE, State.COMPLETED, null)
            .add(State.CLAIMED, Event.COMPLETE, State.COMPLETED, null)
            .add(State.RUNNING, Event.FAIL, State.FAILED, null)
            .add(State.CLAIMED, Event.FAIL, State.FAILED, null)
            .add(State.RUNNING, Event.CANCEL, State.CANCELLED, null)
            .add(State.CLAIMED, Event.CANCEL, State.CANCELLED, null);

    private final Map<State, Map<Event, Transition>> table = new EnumMap<>(State.class);
    private final List<Transition> transitions = new ArrayList<>();

    private RunLifecycle() {
    }

    /** The run's lifecycle. */
    public static RunLifecycle table() {
        return TABLE;
    }

    private RunLifecycle add(State from, Event event, State to, String guard) {
        Transition transition = new Transition(from, event, to, guard);
        if (table.computeIfAbsent(from, state -> new EnumMap<>(Event.class)).putIfAbsent(event, transition) != null) {
            throw new IllegalStateException("the lifecycle defines " + event + " from " + from + " twice");
        }
        transitions.add(transition);
        return this;
    }

    /**
     * Where {@code event} takes a run in {@code from}.
     *
     * @throws ImpossibleTransitionException when the table has no such transition; the message names both
     */
    public State next(State from, Event event) {
        return next(null, from, event);
    }

    /**
     * Where {@code event} takes the run {@code runId}, in {@code from}.
     *
     * @throws ImpossibleTransitionException when the table has no such transition; the message names the run, its
     *                                       state and the event
     */
    public State next(String runId, State from, Event event) {
        return transition(from, event).map(Transition::to)
                .orElseThrow(() -> new ImpossibleTransitionException(runId, from, event));
    }

    /** The event by which a stretch's outcome moves its run: a pause, an end, or a call whose outcome is unknown. */
    public static Event ending(RunOutcome outcome) {
        return switch (outcome.status()) {
            case WAITING_FOR_APPROVAL -> Event.PAUSE_FOR_APPROVAL;
            case WAITING_FOR_INPUT -> Event.PAUSE_FOR_INPUT;
            case OUTCOME_UNKNOWN -> Event.OUTCOME_UNKNOWN;
            case COMPLETED -> Event.COMPLETE;
            case FAILED -> Event.FAIL;
            case CANCELLED -> Event.CANCEL;
            case QUEUED, RUNNING -> throw new IllegalArgumentException("a stretch does not end "
                    + outcome.status().code());
        };
    }

    /** Whether the table lets {@code event} move a run in {@code from}. */
    public boolean allows(State from, Event event) {
        return transition(from, event).isPresent();
    }

    /** Every transition, in the order the table defines them. */
    public List<Transition> transitions() {
        return List.copyOf(transitions);
    }

    private Optional<Transition> transition(State from, Event event) {
        return Optional.ofNullable(table.getOrDefault(from, Map.of()).get(event));
    }

    /**
     * The table as a Mermaid {@code stateDiagram-v2}: {@link State#NEW} is the start, the finished states lead to
     * the end, each transition is an arrow labelled with its event and its guard.
     */
    public String mermaid() {
        StringBuilder text = new StringBuilder("stateDiagram-v2\n");
        for (State state : State.values()) {
            if (state != State.NEW) {
                text.append("    ").append(id(state)).append(" : ").append(state.label()).append('\n');
            }
        }
        for (Transition transition : transitions) {
            text.append("    ").append(id(transition.from())).append(" --> ").append(id(transition.to()))
                    .append(" : ").append(transition.event().name().toLowerCase().replace('_', ' '))
                    .append(transition.guard() == null ? "" : ", if " + transition.guard()).append('\n');
        }
        for (State state : State.values()) {
            if (state.status().filter(RunStatus::finished).isPresent()) {
                text.append("    ").append(id(state)).append(" --> [*]\n");
            }
        }
        return text.toString();
    }

    private static String id(State state) {
        return state == State.NEW ? "[*]" : state.name().toLowerCase();
    }

    /** A run cannot be moved as asked: the table has no transition for its state and the event. */
    public static final class ImpossibleTransitionException extends IllegalStateException {
        private final State from;
        private final Event event;

        ImpossibleTransitionException(String runId, State from, Event event) {
            super((runId == null ? "" : "run " + runId + ": ") + "a run that is " + from.label() + " cannot "
                    + event.verb() + " (" + TABLE.transitions.stream().filter(t -> t.from() == from)
                    .map(t -> t.event().verb()).collect(Collectors.collectingAndThen(Collectors.joining(", "),
                            allowed -> allowed.isEmpty() ? "it has ended" : "it can only " + allowed)) + ")");
            this.from = from;
            this.event = event;
        }

        public State from() {
            return from;
        }

        public Event event() {
            return event;
        }
    }
}
