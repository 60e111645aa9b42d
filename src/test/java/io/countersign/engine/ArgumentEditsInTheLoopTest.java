package io.countersign.engine;

import static io.countersign.engine.LoopHarness.answer;
import static io.countersign.engine.LoopHarness.call;
import static io.countersign.engine.LoopHarness.calls;
import static io.countersign.engine.LoopHarness.resultOf;
import static io.countersign.engine.LoopHarness.script;
import static io.countersign.engine.TestTools.args;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.call.InvocationVerdict;
import io.countersign.engine.call.ToolInvocationDecision;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.event.EventType;
import io.countersign.engine.run.EditCheck;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.state.RunStateException;
import io.countersign.engine.run.ToolLoop;
import io.countersign.engine.tool.CallerChannel;
import io.countersign.engine.tool.ToolCallRequest;
import io.countersign.engine.tool.ToolResult;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** A person's arguments in place of the model's: checked before approval, final at execution. */
class ArgumentEditsInTheLoopTest {
    private final TestTools.Recording save = new TestTools.Recording("save",
            io.countersign.engine.tool.ToolEffect.WRITE, io.countersign.engine.tool.DataClass.SOURCE_CODE, "files") {
        @Override
        public ObjectNode argumentSchema() {
            return TestTools.objectSchema("path");
        }

        @Override
        public ToolResult execute(ToolCallRequest request) throws Exception {
            ToolResult result = super.execute(request);
            request.caller().answered(result); // as a remote tool tells its result the moment it arrives
            return result;
        }
    };
    private final LoopHarness harness = new LoopHarness(save);

    private PausedState paused(ToolLoop loop) {
        return ((RunOutcome.WaitingForApproval) loop.runLoop(harness.request("save"))).state();
    }

    @Test
    void aToolsEarlyAnswerReachesTheCallerUnlessTheRunAddsAPersonsEditToIt() {
        List<String> early = new CopyOnWriteArrayList<>();
        harness.callers = call -> CallerChannel.NONE.answeringTo(result -> early.add(call.id() + " "
                + result.content()));
        ToolLoop approving = harness.loop(script(calls(call("c1", "save", "{\"path\": \"README.md\"}")),
                answer("ok")));
        ToolLoop editing = harness.loop(script(calls(call("c2", "save", "{\"path\": \"README.md\"}")),
                answer("ok")));

        PausedState toApprove = paused(approving);
        approving.resumeApproval(toApprove, harness.agent, TestDecisions.approval(toApprove, harness.jonas,
                List.of(Decision.CallVerdict.approve(0))));
        PausedState toEdit = paused(editing);
        RunOutcome edited = editing.resumeApproval(toEdit, harness.agent, TestDecisions.approval(toEdit,
                harness.jonas, List.of(Decision.CallVerdict.approveEdited(0,
                args("{\"path\": \"docs/NOTES.md\"}")))));

        assertThat(early).containsExactly("c1 done save {\"path\":\"README.md\"}");
        assertThat(resultOf(edited, "c2")).contains("jonas changed the arguments");
    }

    @Test
    void theRulesAndTheToolSeeTheEditedArgumentsAndTheModelReadsWhoChangedThem() {
        List<String> seenByRules = new CopyOnWriteArrayList<>();
        harness.invocationPolicy = context -> {
            seenByRules.add(context.arguments().path("path").asText());
            return InvocationVerdict.allowed(null);
        };
        ToolLoop loop = harness.loop(script(calls(call("c1", "save", "{\"path\": \"README.md\"}")), answer("ok")));
        PausedState state = paused(loop);
        ObjectNode edited = args("{\"path\": \"docs/NOTES.md\"}");
        assertThat(loop.checkEdit(state, harness.agent, 0, edited)).isInstanceOf(EditCheck.Fits.class);

        RunOutcome outcome = loop.resumeApproval(state, harness.agent, TestDecisions.approval(state, harness.jonas,
                List.of(Decision.CallVerdict.approveEdited(0, edited))));

        assertThat(save.executed).containsExactly(edited);
        assertThat(seenByRules).containsExactly("docs/NOTES.md");
        assertThat(resultOf(outcome, "c1")).contains("done save").contains("jonas changed the arguments");
        assertThat(harness.events(EventType.APPROVAL_DECIDED)).singleElement().satisfies(event ->
                assertThat(event.detail()).isEqualTo("approved 1 (1 edited), denied 0"));
    }

    @Test
    void anEditAPreApprovalRuleRefusesIsReportedAndCannotBeApproved() {
        harness.preApprovalPolicy = context -> context.arguments().path("path").asText().startsWith("secrets/")
                ? new InvocationVerdict(ToolInvocationDecision.deny("private_file", "Secrets stay private."),
                "privacy", null)
                : InvocationVerdict.allowed(null);
        ToolLoop loop = harness.loop(script(calls(call("c1", "save", "{\"path\": \"README.md\"}"))));
        PausedState state = paused(loop);
        ObjectNode edited = args("{\"path\": \"secrets/key.txt\"}");

        assertThat(loop.checkEdit(state, harness.agent, 0, edited)).isInstanceOfSatisfying(EditCheck.Refused.class,
                refused -> {
                    assertThat(refused.ruleIdentifier()).isEqualTo("privacy");
                    assertThat(refused.explanation()).isEqualTo("Secrets stay private.");
                });
        assertThatThrownBy(() -> loop.prepareApproval(state, harness.agent, TestDecisions.approval(state, harness.jonas,
                List.of(Decision.CallVerdict.approveEdited(0, edited)))))
                .isInstanceOf(RunStateException.class).hasMessageContaining("nothing was decided");
        assertThat(save.executed).isEmpty();
        assertThat(harness.events(EventType.APPROVAL_DECIDED)).isEmpty();
    }

    @Test
    void anEditTheSchemaRefusesNamesTheProperty() {
        ToolLoop loop = harness.loop(script(calls(call("c1", "save", "{\"path\": \"README.md\"}"))));
        PausedState state = paused(loop);
        assertThat(loop.checkEdit(state, harness.agent, 0, args("{\"path\": 7}")))
                .isInstanceOfSatisfying(EditCheck.Invalid.class, invalid ->
                        assertThat(invalid.problem()).contains("argument \"path\": must be a string"));
        assertThat(loop.checkEdit(state, harness.agent, 3, args("{\"path\": \"a\"}")))
                .isInstanceOfSatisfying(EditCheck.Invalid.class, invalid ->
                        assertThat(invalid.problem()).contains("call 3").contains("does not wait for approval"));
    }

    @Test
    void theEditedCallsPreviewIsTakenAgain() {
        save.preview.set("would write a file");
        ToolLoop loop = harness.loop(script(calls(call("c1", "save", "{\"path\": \"README.md\"}"))));
        PausedState state = paused(loop);
        save.preview.set("would write another file");
        assertThat(loop.checkEdit(state, harness.agent, 0, args("{\"path\": \"b.md\"}")))
                .isInstanceOfSatisfying(EditCheck.Fits.class, fits ->
                        assertThat(fits.preview()).containsExactly("would write another file"));
    }
}
