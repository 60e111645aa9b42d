package io.countersign.engine;

import static io.countersign.engine.LoopHarness.answer;
import static io.countersign.engine.LoopHarness.call;
import static io.countersign.engine.LoopHarness.calls;
import static io.countersign.engine.LoopHarness.resultOf;
import static io.countersign.engine.LoopHarness.script;
import static org.assertj.core.api.Assertions.assertThat;

import io.countersign.engine.call.ToolInvocationObservation;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.run.ToolLoop;
import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.ToolEffect;
import io.countersign.engine.tool.WithdrawableCaller;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** A caller that gave a call up (an MCP host's cancellation) never has it started, whatever was decided on it. */
class WithdrawnCallsInTheLoopTest {
    private final TestTools.Recording save = new TestTools.Recording("save", ToolEffect.WRITE,
            DataClass.SOURCE_CODE, "files");
    private final LoopHarness harness = new LoopHarness(save);
    private final Map<String, WithdrawableCaller> callers = new ConcurrentHashMap<>();

    WithdrawnCallsInTheLoopTest() {
        harness.callers = call -> callerOf(call.id());
    }

    private WithdrawableCaller callerOf(String callId) {
        return callers.computeIfAbsent(callId, id -> new WithdrawableCaller());
    }

    @Test
    void anApprovedCallWhoseCallerGaveItUpIsNeverStartedAndTheHistorySaysCancelled() {
        ToolLoop loop = harness.loop(script(calls(call("c1", "save", "{\"path\": \"a.txt\"}"),
                call("c2", "save", "{\"path\": \"b.txt\"}")), answer("done")));
        PausedState paused = ((RunOutcome.WaitingForApproval) loop.runLoop(harness.request("save both"))).state();
        callerOf("c1").withdraw();

        RunOutcome outcome = loop.resumeApproval(paused, harness.agent, TestDecisions.approval(paused, harness.jonas,
                List.of(Decision.CallVerdict.approve(0), Decision.CallVerdict.approve(1))));

        assertThat(save.executed).extracting(arguments -> arguments.path("path").asText()).containsExactly("b.txt");
        assertThat(resultOf(outcome, "c1"))
                .isEqualTo("Error: the caller of \"save\" cancelled it before it ran. Nothing was executed.");
        assertThat(outcome.history().observations()).extracting(ToolInvocationObservation::outcome)
                .containsExactly(ToolInvocationObservation.Outcome.CANCELLED, ToolInvocationObservation.Outcome.OK);
    }
}
