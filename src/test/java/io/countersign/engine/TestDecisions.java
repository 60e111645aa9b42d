package io.countersign.engine;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.state.PausedState;
import java.time.Instant;
import java.util.List;

/** A person's decisions on a paused state, for the tests that resume the loop directly: made at one fixed time. */
public final class TestDecisions {
    /** When every decision here is made; the loop reads who decided, never when. */
    public static final Instant DECIDED = Instant.parse("2026-03-02T10:46:00Z");

    private TestDecisions() {
    }

    /** The person's verdicts on the state's card. */
    public static Decision.Approval approval(PausedState state, Actor person, List<Decision.CallVerdict> verdicts) {
        return Decision.approval(state.runId(), person.name(), DECIDED, state.digest(), verdicts);
    }

    /** The person approves every call that waits. */
    public static Decision.Approval approveAll(PausedState state, Actor person) {
        return approval(state, person, state.awaitingApproval().stream()
                .map(call -> Decision.CallVerdict.approve(call.index())).toList());
    }

    /** The person denies every call that waits, for this reason. */
    public static Decision.Approval denyAll(PausedState state, Actor person, String reason) {
        return state.denyAll(person.name(), DECIDED, reason);
    }

    /** The person's values for the state's input form. */
    public static Decision.Input input(PausedState state, Actor person, ObjectNode values) {
        return Decision.input(state.runId(), person.name(), DECIDED, state.digest(), values);
    }
}
