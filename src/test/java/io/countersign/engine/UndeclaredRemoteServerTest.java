package io.countersign.engine;

import static io.countersign.engine.LoopHarness.answer;
import static io.countersign.engine.LoopHarness.call;
import static io.countersign.engine.LoopHarness.calls;
import static io.countersign.engine.LoopHarness.resultOf;
import static io.countersign.engine.LoopHarness.script;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.engine.tool.ApprovalDeclaration;
import io.countersign.engine.access.ToolApprovalRule;
import io.countersign.engine.access.UnattendedToolFilter;
import io.countersign.engine.event.EventType;
import io.countersign.engine.state.RunOptions;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.tool.ToolEffect;
import io.countersign.engine.tool.ToolSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A remote tool whose server nobody declared runs without approval, whatever it does (seed adr-210). */
class UndeclaredRemoteServerTest {
    private final TestTools.Remote remoteWrite = new TestTools.Remote("srv.write", "srv", ToolEffect.WRITE);
    private final LoopHarness harness = new LoopHarness(remoteWrite);
    private final UnattendedToolFilter filter = new UnattendedToolFilter(harness.registry,
            new ToolApprovalRule(() -> harness.settings));
    private static final String WRITE = call("c1", "srv.write", "{\"path\": \"NOTES.md\"}");

    @Test
    void unattendedKeepsAnUndeclaredRemoteWriteTool() {
        assertThat(filter.unattended(List.of("srv.write"))).containsExactly("srv.write");
    }

    @Test
    void aRunCallingAnUndeclaredRemoteWriteToolDoesNotPause() {
        RunOutcome outcome = harness.loop(script(calls(WRITE), answer("written"))).runLoop(harness.request("write"));

        assertThat(outcome.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(remoteWrite.executed).hasSize(1);
        assertThat(harness.events(EventType.WRITE_UNAPPROVED)).isEmpty();
    }

    @Test
    void declaringTheServerApprovalBoundMakesTheNextRunPause() {
        harness.loop(script(calls(WRITE), answer("written"))).runLoop(harness.request("write"));
        harness.settings = harness.settings.withServerDeclaration("srv", ApprovalDeclaration.APPROVAL_BOUND);

        RunOutcome next = harness.loop(script(calls(WRITE), answer("written"))).runLoop(harness.request("again"));

        assertThat(next).isInstanceOf(RunOutcome.WaitingForApproval.class);
        assertThat(remoteWrite.executed).hasSize(1);
        assertThat(filter.unattended(List.of("srv.write"))).isEmpty();
    }

    @Test
    void anUnattendedRunIsOfferedAnUndeclaredRemoteWriteToolUntilTheServerIsDeclaredApprovalBound() {
        RunOutcome outcome = harness.loop(script(calls(WRITE), answer("written")))
                .runLoop(harness.request("write").withOptions(RunOptions.unattendedRun()));

        assertThat(harness.requests.get(0).tools()).extracting(ToolSpec::name).containsExactly("srv.write");
        assertThat(outcome.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(remoteWrite.executed).hasSize(1);

        harness.settings = harness.settings.withServerDeclaration("srv", ApprovalDeclaration.APPROVAL_BOUND);
        harness.requests.clear();
        RunOutcome next = harness.loop(script(calls(WRITE), answer("not offered")))
                .runLoop(harness.request("again").withOptions(RunOptions.unattendedRun()));

        assertThat(harness.requests.get(0).tools()).isEmpty();
        assertThat(remoteWrite.executed).hasSize(1);
        assertThat(resultOf(next, "c1")).contains("reason: notOffered");
    }

    @Test
    void declaringTheServerNotApprovalBoundKeepsItsToolsUnattended() {
        harness.settings = harness.settings.withServerDeclaration("srv", ApprovalDeclaration.NOT_APPROVAL_BOUND);

        RunOutcome outcome = harness.loop(script(calls(WRITE), answer("written"))).runLoop(harness.request("write"));

        assertThat(outcome.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(filter.unattended(List.of("srv.write"))).containsExactly("srv.write");
    }
}
