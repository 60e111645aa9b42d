package io.countersign.engine;

import static io.countersign.engine.LoopHarness.answer;
import static io.countersign.engine.LoopHarness.call;
import static io.countersign.engine.LoopHarness.calls;
import static io.countersign.engine.LoopHarness.resultOf;
import static io.countersign.engine.LoopHarness.script;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.engine.call.InvocationVerdict;
import io.countersign.engine.call.ToolInvocationDecision;
import io.countersign.engine.call.ToolInvocationObservation;
import io.countersign.engine.call.ToolInvocationTarget;
import io.countersign.engine.event.EventType;
import io.countersign.engine.invocation.InvocationRules;
import io.countersign.engine.invocation.ToolTargetResolver;
import io.countersign.engine.port.ScriptedChatModel;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.run.ToolLoop;
import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.ToolCallRequest;
import io.countersign.engine.tool.ToolEffect;
import io.countersign.engine.tool.ToolResult;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** How the loop applies the invocation and pre-approval policies (the seed on tool invocation rules). */
class InvocationRulesInTheLoopTest {
    private final TestTools.Recording fsRead = TestTools.read("fs_read");
    private final TestTools.Recording fsWrite = TestTools.write("fs_write");
    private final TestTools.Recording fsDelete = TestTools.write("fs_delete");
    private final LoopHarness harness = new LoopHarness(fsRead, fsWrite, fsDelete);
    private final AtomicBoolean ruleAllowsDeleteNow = new AtomicBoolean(false);

    private static final String WRITE = call("c1", "fs_write", "{\"path\": \"NOTES.md\"}");
    private static final String DELETE = call("c2", "fs_delete", "{\"path\": \"/outside\"}");

    private static InvocationVerdict outsideWorkspace() {
        return new InvocationVerdict(ToolInvocationDecision.deny("outside_workspace",
                "Keep the change inside the workspace folder \"release-notes\"."), "workspace.boundary",
                new ToolInvocationTarget("file", "outside"));
    }

    InvocationRulesInTheLoopTest() {
        harness.preApprovalPolicy = context -> context.toolName().equals("fs_delete") && !ruleAllowsDeleteNow.get()
                ? outsideWorkspace() : InvocationVerdict.allowed(null);
    }

    @Test
    void aPreApprovalRefusalBesideAWaitingCallStaysOnTheCardWithItsExplanation() {
        RunOutcome outcome = harness.loop(script(calls(WRITE, DELETE))).runLoop(harness.request("tidy"));
        PausedState state = ((RunOutcome.WaitingForApproval) outcome).state();
        assertThat(state.awaitingApproval()).extracting(c -> c.call().name()).containsExactly("fs_write");
        assertThat(state.refused()).singleElement().satisfies(call -> {
            assertThat(call.refusal().ruleIdentifier()).isEqualTo("workspace.boundary");
            assertThat(call.refusal().reasonCode()).isEqualTo("outside_workspace");
            assertThat(call.refusal().explanation()).contains("release-notes");
        });
    }

    @Test
    void aPreApprovalRefusalOnTheCardIsRefusedOnApprovalEvenIfTheRuleNowAllows() {
        ToolLoop loop = harness.loop(script(calls(WRITE, DELETE), answer("ok")));
        PausedState state = ((RunOutcome.WaitingForApproval) loop.runLoop(harness.request("tidy"))).state();
        ruleAllowsDeleteNow.set(true);
        RunOutcome outcome = loop.resumeApproval(state, harness.agent, TestDecisions.approveAll(state,
                harness.jonas));
        assertThat(fsWrite.executed).hasSize(1);
        assertThat(fsDelete.executed).isEmpty();
        assertThat(resultOf(outcome, "c2")).isEqualTo("Error: invocation denied (rule: workspace.boundary, reason:"
                + " outside_workspace). Nothing was executed. Keep the change inside the workspace folder"
                + " \"release-notes\".");
    }

    @Test
    void aPreApprovalRefusalIsRecordedOnceAcrossThePauseAndTheResume() {
        ToolLoop loop = harness.loop(script(calls(WRITE, DELETE), answer("ok")));
        PausedState state = ((RunOutcome.WaitingForApproval) loop.runLoop(harness.request("tidy"))).state();
        loop.resumeApproval(state, harness.agent, TestDecisions.approveAll(state, harness.jonas));
        assertThat(harness.events(EventType.INVOCATION_DENIED)).singleElement().satisfies(event -> {
            assertThat(event.ruleId()).isEqualTo("workspace.boundary");
            assertThat(event.reasonCode()).isEqualTo("outside_workspace");
            assertThat(event.toolName()).isEqualTo("fs_delete");
            assertThat(event.detail()).isNull();
        });
    }

    @Test
    void aPreApprovalRefusalAloneDoesNotPauseTheTurnAndIsRecordedOnce() {
        RunOutcome outcome = harness.loop(script(calls(DELETE, call("c3", "fs_read", "{}")), answer("ok")))
                .runLoop(harness.request("delete"));
        assertThat(outcome.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(fsDelete.executed).isEmpty();
        assertThat(fsRead.executed).hasSize(1);
        assertThat(resultOf(outcome, "c2")).startsWith("Error: invocation denied (rule: workspace.boundary");
        assertThat(harness.events(EventType.INVOCATION_DENIED)).hasSize(1);
        assertThat(outcome.history().observations()).extracting(ToolInvocationObservation::outcome)
                .containsExactly(ToolInvocationObservation.Outcome.DENIED, ToolInvocationObservation.Outcome.OK);
    }

    @Test
    void aCallRefusedBeforeItsApprovalIsNeverExecutedOnTheStrengthOfThatRefusal() {
        harness.invocationPolicy = context -> InvocationVerdict.allowed(null);
        RunOutcome outcome = harness.loop(script(calls(DELETE), answer("ok"))).runLoop(harness.request("delete"));
        assertThat(fsDelete.executed).isEmpty();
        assertThat(harness.events(EventType.WRITE_UNAPPROVED)).isEmpty();
        assertThat(outcome.status()).isEqualTo(RunStatus.COMPLETED);
    }

    @Test
    void aFailureRefusalDoesNotSkipTheCard() {
        harness.preApprovalPolicy = context -> new InvocationVerdict(ToolInvocationDecision.deny(
                InvocationVerdict.RULE_FAILED), "workspace.boundary", null);
        RunOutcome outcome = harness.loop(script(calls(DELETE))).runLoop(harness.request("delete"));
        assertThat(outcome).isInstanceOfSatisfying(RunOutcome.WaitingForApproval.class, waiting ->
                assertThat(waiting.state().awaitingApproval()).extracting(c -> c.call().name())
                        .containsExactly("fs_delete"));
        assertThat(harness.events(EventType.INVOCATION_DENIED)).isEmpty();
    }

    @Test
    void aPreApprovalPolicyThatThrowsDoesNotSkipTheCard() {
        harness.preApprovalPolicy = context -> {
            throw new IllegalStateException("broken");
        };
        RunOutcome outcome = harness.loop(script(calls(DELETE))).runLoop(harness.request("delete"));
        assertThat(outcome.status()).isEqualTo(RunStatus.WAITING_FOR_APPROVAL);
    }

    @Test
    void aRuleIsAskedAgainJustBeforeAnApprovedCallExecutes() {
        AtomicInteger preApprovalAsked = new AtomicInteger();
        AtomicInteger invocationAsked = new AtomicInteger();
        harness.preApprovalPolicy = context -> {
            preApprovalAsked.incrementAndGet();
            return InvocationVerdict.allowed(null);
        };
        harness.invocationPolicy = context -> {
            invocationAsked.incrementAndGet();
            return InvocationVerdict.allowed(null);
        };
        ToolLoop loop = harness.loop(script(calls(WRITE), answer("ok")));
        PausedState state = ((RunOutcome.WaitingForApproval) loop.runLoop(harness.request("edit"))).state();
        loop.resumeApproval(state, harness.agent, TestDecisions.approveAll(state, harness.jonas));
        assertThat(preApprovalAsked.get() + invocationAsked.get()).isGreaterThanOrEqualTo(2);
        assertThat(invocationAsked.get()).isEqualTo(1);
    }

    @Test
    void anApprovedCallThatARuleNowRefusesIsNotExecuted() {
        ToolLoop loop = harness.loop(script(calls(WRITE), answer("ok")));
        PausedState state = ((RunOutcome.WaitingForApproval) loop.runLoop(harness.request("edit"))).state();
        harness.invocationPolicy = context -> new InvocationVerdict(ToolInvocationDecision.deny("frozen"),
                "release.freeze", null);
        RunOutcome outcome = loop.resumeApproval(state, harness.agent, TestDecisions.approveAll(state,
                harness.jonas));
        assertThat(fsWrite.executed).isEmpty();
        assertThat(resultOf(outcome, "c1")).isEqualTo(
                "Error: invocation denied (rule: release.freeze, reason: frozen). Nothing was executed.");
    }

    @Test
    void aRefusalAtExecutionRecordsOneEventWithoutTheExplanationAndADeniedObservationWithItsTarget() {
        harness.invocationPolicy = context -> new InvocationVerdict(ToolInvocationDecision.deny("private_file",
                "Do not read the private notes."), "privacy.guard", new ToolInvocationTarget("file", "secret.md"));
        RunOutcome outcome = harness.loop(script(calls(call("c5", "fs_read", "{\"path\": \"secret.md\"}")),
                answer("ok"))).runLoop(harness.request("read"));
        assertThat(fsRead.executed).isEmpty();
        assertThat(resultOf(outcome, "c5")).endsWith("Nothing was executed. Do not read the private notes.");
        assertThat(harness.events(EventType.INVOCATION_DENIED)).singleElement().satisfies(event -> {
            assertThat(event.toString()).doesNotContain("Do not read").doesNotContain("secret.md");
            assertThat(event.ruleId()).isEqualTo("privacy.guard");
        });
        assertThat(outcome.history().observations()).singleElement().isEqualTo(new ToolInvocationObservation(
                "fs_read", ToolInvocationObservation.Outcome.DENIED, new ToolInvocationTarget("file", "secret.md")));
    }

    @Test
    void theRulesSeeTheFinalArgumentsAfterTheInputOverlay() {
        TestTools.Input ask = new TestTools.Input("ask_user");
        LoopHarness local = new LoopHarness(ask);
        java.util.List<String> seen = new java.util.ArrayList<>();
        local.invocationPolicy = context -> {
            seen.add(context.arguments().path("answer").asText());
            return InvocationVerdict.allowed(null);
        };
        ToolLoop loop = local.loop(script(calls(call("c1", "ask_user", "{\"answer\": \"model\"}")), answer("ok")));
        PausedState state = ((RunOutcome.WaitingForInput) loop.runLoop(local.request("ask"))).state();
        loop.resumeInput(state, local.agent, TestDecisions.input(state, local.maria, TestTools.args(
                "{\"answer\": \"person\"}")));
        assertThat(seen).containsExactly("person");
    }

    @Test
    void thePolicyThatThrowsRefusesTheCallAsPolicyFailed() {
        harness.invocationPolicy = context -> {
            throw new IllegalStateException("secret-abc");
        };
        RunOutcome outcome = harness.loop(script(calls(call("c5", "fs_read", "{}")), answer("ok")))
                .runLoop(harness.request("read"));
        assertThat(fsRead.executed).isEmpty();
        assertThat(resultOf(outcome, "c5")).contains("reason: policy_failed").doesNotContain("secret-abc");
    }

    @Test
    void aFailingTargetResolutionNamesNoRuleInTheResultTheEventAndTheHistoryBesideARuleNamedPolicy() {
        ToolTargetResolver throwing = (tool, arguments, configuration) -> {
            throw new IllegalStateException("secret-abc");
        };
        InvocationRules rules = InvocationRules.of(java.util.List.of(CountingRule.allowing("policy")),
                java.util.List.of(throwing));
        RunOutcome outcome = harness.loop(ScriptedChatModel.fromJson(script(calls(call("c5", "fs_read", "{}")), answer("ok"))), rules)
                .runLoop(harness.request("read"));
        assertThat(fsRead.executed).isEmpty();
        assertThat(resultOf(outcome, "c5"))
                .isEqualTo("Error: invocation denied (reason: policy_failed). Nothing was executed.");
        assertThat(harness.events(EventType.INVOCATION_DENIED)).singleElement().satisfies(event -> {
            assertThat(event.ruleId()).isNull();
            assertThat(event.reasonCode()).isEqualTo("policy_failed");
        });
        assertThat(outcome.history().observations()).singleElement().isEqualTo(new ToolInvocationObservation(
                "fs_read", ToolInvocationObservation.Outcome.DENIED, null));
    }

    @Test
    void aRuleNamedPolicyDeniesUnderItsOwnName() {
        InvocationRules rules = InvocationRules.of(java.util.List.of(CountingRule.denying("policy", "outside_site")),
                java.util.List.of());
        RunOutcome outcome = harness.loop(ScriptedChatModel.fromJson(script(calls(call("c5", "fs_read", "{}")), answer("ok"))), rules)
                .runLoop(harness.request("read"));
        assertThat(resultOf(outcome, "c5"))
                .isEqualTo("Error: invocation denied (rule: policy, reason: outside_site). Nothing was executed.");
        assertThat(harness.events(EventType.INVOCATION_DENIED)).singleElement()
                .satisfies(event -> assertThat(event.ruleId()).isEqualTo("policy"));
    }

    @Test
    void aCallRefusedBeforeTheCardStaysRefusedWhenTheRunIsCancelledMidTurn() {
        TestTools.Recording stopper = new TestTools.Recording("stopper", ToolEffect.READ, DataClass.PUBLIC_CONTENT,
                "files") {
            @Override
            public ToolResult execute(ToolCallRequest request) {
                cancelledRuns.add("run-1");
                return ToolResult.ok("stopping");
            }
        };
        LoopHarness local = new LoopHarness(stopper, fsDelete);
        local.preApprovalPolicy = harness.preApprovalPolicy;
        cancelledRuns = local.cancelled;
        RunOutcome outcome = local.loop(script(calls(call("c0", "stopper", "{}"), DELETE), answer("never")))
                .runLoop(local.request("go"));
        assertThat(outcome.status()).isEqualTo(RunStatus.CANCELLED);
        assertThat(resultOf(outcome, "c2")).startsWith("Error: invocation denied (rule: workspace.boundary");
        assertThat(outcome.history().observations()).extracting(ToolInvocationObservation::outcome)
                .containsExactly(ToolInvocationObservation.Outcome.OK, ToolInvocationObservation.Outcome.DENIED);
    }

    private java.util.Set<String> cancelledRuns = new java.util.HashSet<>();
}
