package io.countersign.engine.run;

import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.DecisionStart;
import io.countersign.engine.port.ExecutionJournal;
import io.countersign.engine.state.PendingCall;
import io.countersign.engine.state.RunOutcome;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * A decision on a pause, checked against the pause and ready to be carried out, before anything of it is written:
 * what it writes ahead of its first call ({@link #start()}), then the calls and the rounds that follow. A caller
 * commits the start with the decision's claim and then carries the decision out once.
 */
public sealed interface PreparedResume {

    /**
     * An approved call's preview changed since the card was shown: nothing runs, the run waits with this state, and
     * the decision is refused as made on an old card.
     */
    record PreviewsChanged(RunOutcome.WaitingForApproval outcome) implements PreparedResume {
        public DecisionResult.Stale refusal() {
            return new DecisionResult.Stale(outcome.state().runId(), outcome.state().digest());
        }
    }

    /** The decision fits the pause: its start is known, its calls wait to run. */
    final class Ready implements PreparedResume {
        private final DecisionStart start;
        private final RunSegment run;
        private final Function<RunSegment, RunOutcome> rest;
        private boolean carriedOut;

        Ready(DecisionStart start, RunSegment run, Function<RunSegment, RunOutcome> rest) {
            this.start = start;
            this.run = run;
            this.rest = rest;
        }

        /** The decision's event and the intents of the calls about to run, to be committed before any runs. */
        public DecisionStart start() {
            return start;
        }

        /**
         * Runs the decided turn and the rounds after it, under the driver's journal, which holds the start's
         * intents already.
         *
         * @throws io.countersign.engine.port.RunTakenOverException when the driver lost the run on the way; what
         *                                                          had not started does not run
         * @throws IllegalStateException                            when called a second time
         */
        public RunOutcome carryOut(ExecutionJournal journal) {
            if (carriedOut) {
                throw new IllegalStateException("the decision on run " + run.runId + " was carried out already");
            }
            carriedOut = true;
            run.journalUnder(Objects.requireNonNull(journal, "journal"), start.intents());
            return rest.apply(run);
        }
    }

    /** The calls of the paused turn that the answer lets run, in their order, as journal intents. */
    static List<ExecutionJournal.Intent> intents(List<PendingCall> calls, PauseAnswer answer) {
        return calls.stream().filter(call -> switch (call.disposition()) {
            case REFUSED -> false;
            case RUNS_ON_RESUME, APPROVED_BY_GRANT -> true;
            case AWAITS_APPROVAL, AWAITS_INPUT -> answer.stepFor(call) instanceof PauseAnswer.Step.Run;
        }).map(call -> new ExecutionJournal.Intent(call.call().id(), call.call().name())).toList();
    }
}
