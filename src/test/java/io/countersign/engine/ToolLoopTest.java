package io.countersign.engine;

import static io.countersign.engine.LoopHarness.answer;
import static io.countersign.engine.LoopHarness.call;
import static io.countersign.engine.LoopHarness.calls;
import static io.countersign.engine.LoopHarness.resultOf;
import static io.countersign.engine.LoopHarness.script;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.call.ToolExecutionContext;
import io.countersign.engine.call.ToolInvocationHistory;
import io.countersign.engine.call.ToolInvocationObservation;
import io.countersign.engine.chat.AssistantTurn;
import io.countersign.engine.chat.ChatMessage;
import io.countersign.engine.chat.ChatRequest;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.chat.TokenUsage;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.port.ModelException;
import io.countersign.engine.run.RunRequest;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.PendingCall;
import io.countersign.engine.state.RunCounters;
import io.countersign.engine.state.RunOptions;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.state.RunStateException;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.run.ToolLoop;
import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.InputField;
import io.countersign.engine.tool.InputValidation;
import io.countersign.engine.tool.InvalidInputException;
import io.countersign.engine.tool.ToolCallRequest;
import io.countersign.engine.tool.ToolEffect;
import io.countersign.engine.tool.ToolResult;
import io.countersign.engine.tool.ToolSpec;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class ToolLoopTest {
    private final TestTools.Recording fsRead = TestTools.read("fs_read");
    private final TestTools.Recording fsWrite = TestTools.write("fs_write");
    private final TestTools.Input askUser = new TestTools.Input("ask_user");
    private final TestTools.Configurable fetch = new TestTools.Configurable("web_fetch", ToolEffect.READ);
    private final TestTools.Recording outsider = new TestTools.Recording("net_post", ToolEffect.WRITE,
            DataClass.PUBLIC_CONTENT, "network");
    private final LoopHarness harness = new LoopHarness(fsRead, fsWrite, askUser, fetch, outsider);

    private static final String READ_A = call("c1", "fs_read", "{\"path\": \"a.txt\"}");
    private static final String WRITE_B = call("c2", "fs_write", "{\"path\": \"b.txt\", \"content\": \"hi\"}");
    private static final String ASK = call("c3", "ask_user", "{\"question\": \"Which tone?\", \"answer\": \"guess\"}");

    @Test
    void completesWhenTheModelAnswersWithoutToolCalls() {
        RunOutcome outcome = harness.loop(script(answer("all done"))).runLoop(harness.request("hello"));
        assertThat(outcome).isInstanceOfSatisfying(RunOutcome.Completed.class, done -> {
            assertThat(done.answer()).isEqualTo("all done");
            assertThat(done.truncated()).isFalse();
        });
        assertThat(outcome.counters()).isEqualTo(new RunCounters(1, new TokenUsage(7, 3)));
    }

    @Test
    void executesAReadCallAndFeedsItsResultBack() {
        RunOutcome outcome = harness.loop(script(calls(READ_A), answer("read it")))
                .runLoop(harness.request("read a"));
        assertThat(outcome.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(fsRead.executed).hasSize(1);
        assertThat(resultOf(outcome, "c1")).startsWith("done fs_read");
        assertThat(harness.requests.get(1).messages()).extracting(ChatMessage::role)
                .containsExactly(ChatMessage.Role.USER, ChatMessage.Role.ASSISTANT, ChatMessage.Role.TOOL);
    }

    @Test
    void offersTheAgentsToolsInRegistrationOrder() {
        harness.loop(script(answer("ok"))).runLoop(harness.request("hi"));
        assertThat(harness.requests.get(0).tools()).extracting(ToolSpec::name)
                .containsExactly("fs_read", "fs_write", "ask_user", "web_fetch");
    }

    @Test
    void aTurnWithOneApprovalBoundCallPausesWholeAndExecutesNothing() {
        RunOutcome outcome = harness.loop(script(calls(READ_A, WRITE_B))).runLoop(harness.request("edit"));
        assertThat(outcome).isInstanceOf(RunOutcome.WaitingForApproval.class);
        PausedState state = ((RunOutcome.WaitingForApproval) outcome).state();
        assertThat(state.calls()).extracting(PendingCall::disposition).containsExactly(
                PendingCall.Disposition.RUNS_ON_RESUME, PendingCall.Disposition.AWAITS_APPROVAL);
        assertThat(fsRead.executed).isEmpty();
        assertThat(fsWrite.executed).isEmpty();
    }

    @Test
    void approvalWinsOverInput() {
        RunOutcome outcome = harness.loop(script(calls(ASK, WRITE_B))).runLoop(harness.request("ask and write"));
        assertThat(outcome.status()).isEqualTo(RunStatus.WAITING_FOR_APPROVAL);
        assertThat(askUser.executed).isEmpty();
    }

    @Test
    void aTurnWithAnInputCallAndNoApprovalPausesForInput() {
        RunOutcome outcome = harness.loop(script(calls(READ_A, ASK))).runLoop(harness.request("ask"));
        assertThat(outcome).isInstanceOfSatisfying(RunOutcome.WaitingForInput.class, waiting -> {
            assertThat(waiting.state().inputCall().call().name()).isEqualTo("ask_user");
            assertThat(waiting.state().inputFields()).extracting(InputField::name)
                    .containsExactly("answer", "count", "tone");
        });
        assertThat(fsRead.executed).isEmpty();
    }

    @Test
    void aRegisteredButNotOfferedApprovalToolNeverPausesTheTurnAndIsRefusedWhenItWouldRun() {
        RunOutcome outcome = harness.loop(script(calls(call("c9", "net_post", "{}"), READ_A), answer("ok")))
                .runLoop(harness.request("post"));
        assertThat(outcome.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(outsider.executed).isEmpty();
        assertThat(fsRead.executed).hasSize(1);
        assertThat(resultOf(outcome, "c9")).isEqualTo(
                "Error: tool \"net_post\" is not available in this run (reason: configurationGroup)."
                        + " Nothing was executed.");
        assertThat(harness.events(EventType.TOOL_DENIED)).extracting(GovernanceEvent::toolName,
                GovernanceEvent::reasonCode).containsExactly(org.assertj.core.groups.Tuple.tuple("net_post",
                "configurationGroup"));
    }

    @Test
    void aConfigurableWriteToolSetToNoApprovalStillPauses() {
        TestTools.Configurable cfgWrite = new TestTools.Configurable("cfg_write", ToolEffect.WRITE);
        LoopHarness local = new LoopHarness(cfgWrite);
        local.settings = local.settings.withApprovalSetting("cfg_write", false);
        RunOutcome outcome = local.loop(script(calls(call("c1", "cfg_write", "{}"))))
                .runLoop(local.request("write"));
        assertThat(outcome.status()).isEqualTo(RunStatus.WAITING_FOR_APPROVAL);
    }

    @Test
    void approvedCallsExecuteInOrderAndTheRunContinues() {
        ToolLoop loop = harness.loop(script(calls(READ_A, WRITE_B), answer("written")));
        PausedState state = ((RunOutcome.WaitingForApproval) loop.runLoop(harness.request("edit"))).state();
        RunOutcome outcome = loop.resumeApproval(state, harness.agent, TestDecisions.approveAll(state,
                harness.jonas));
        assertThat(outcome).isInstanceOfSatisfying(RunOutcome.Completed.class,
                done -> assertThat(done.answer()).isEqualTo("written"));
        assertThat(fsRead.executed).hasSize(1);
        assertThat(fsWrite.executed).hasSize(1);
        assertThat(harness.events(EventType.APPROVAL_DECIDED)).singleElement()
                .satisfies(event -> {
                    assertThat(event.actor()).isEqualTo("jonas");
                    assertThat(event.detail()).isEqualTo("approved 1, denied 0");
                });
    }

    @Test
    void aDenialDoesNotEndTheRunAndTellsTheModelWhoDeclinedAndWhy() {
        ToolLoop loop = harness.loop(script(calls(WRITE_B), answer("understood")));
        PausedState state = ((RunOutcome.WaitingForApproval) loop.runLoop(harness.request("edit"))).state();
        RunOutcome outcome = loop.resumeApproval(state, harness.agent,
                TestDecisions.denyAll(state, harness.jonas, "Wrong target"));
        assertThat(outcome.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(fsWrite.executed).isEmpty();
        assertThat(resultOf(outcome, "c2")).isEqualTo("Error: declined by jonas: Wrong target. Nothing was executed.");
        assertThat(outcome.history().observations()).extracting(ToolInvocationObservation::outcome)
                .containsExactly(ToolInvocationObservation.Outcome.DENIED);
    }

    @Test
    void resumingAfterTheToolWasUnregisteredRefusesIt() {
        ToolLoop loop = harness.loop(script(calls(WRITE_B), answer("ok")));
        PausedState state = ((RunOutcome.WaitingForApproval) loop.runLoop(harness.request("edit"))).state();
        harness.registry.unregister("fs_write");
        RunOutcome outcome = loop.resumeApproval(state, harness.agent, TestDecisions.approveAll(state,
                harness.jonas));
        assertThat(fsWrite.executed).isEmpty();
        assertThat(resultOf(outcome, "c2")).contains("reason: notRegistered").endsWith("Nothing was executed.");
    }

    @Test
    void gatesAreCheckedAgainJustBeforeAnApprovedCallExecutes() {
        ToolLoop loop = harness.loop(script(calls(WRITE_B), answer("ok")));
        PausedState state = ((RunOutcome.WaitingForApproval) loop.runLoop(harness.request("edit"))).state();
        harness.settings = harness.settings.withToolEnabled("fs_write", false);
        RunOutcome outcome = loop.resumeApproval(state, harness.agent, TestDecisions.approveAll(state,
                harness.jonas));
        assertThat(fsWrite.executed).isEmpty();
        assertThat(resultOf(outcome, "c2")).contains("reason: toolDisabled");
    }

    @Test
    void aSecondPauseAfterAResumeCarriesTheRunningTotals() {
        ToolLoop loop = harness.loop(script(calls(WRITE_B), calls(call("c4", "fs_write", "{\"path\": \"c\"}"))));
        PausedState first = ((RunOutcome.WaitingForApproval) loop.runLoop(harness.request("edit"))).state();
        assertThat(first.counters()).isEqualTo(new RunCounters(1, new TokenUsage(10, 5)));
        RunOutcome second = loop.resumeApproval(first, harness.agent, TestDecisions.approveAll(first,
                harness.jonas));
        assertThat(second.status()).isEqualTo(RunStatus.WAITING_FOR_APPROVAL);
        assertThat(second.counters()).isEqualTo(new RunCounters(2, new TokenUsage(20, 10)));
    }

    @Test
    void aResumedLoopStartsFromTheSeedCounters() {
        ChatMessage prior = ChatMessage.user("continue");
        RunRequest seeded = new RunRequest(harness.agent, ToolExecutionContext.of(harness.maria, "run-1", null),
                List.of(prior), true, new RunCounters(4, new TokenUsage(100, 50)), RunOptions.DEFAULTS);
        RunOutcome outcome = harness.loop(script(answer("fine"))).runLoop(seeded);
        assertThat(outcome.counters()).isEqualTo(new RunCounters(5, new TokenUsage(107, 53)));
    }

    @Test
    void anApprovedCallWhosePreviewChangedPausesAgainMarkedStaleAndNothingExecutes() {
        fsWrite.preview.set("+ hi");
        ToolLoop loop = harness.loop(script(calls(READ_A, WRITE_B), answer("ok")));
        PausedState state = ((RunOutcome.WaitingForApproval) loop.runLoop(harness.request("edit"))).state();
        assertThat(state.calls().get(1).preview().lines()).containsExactly("+ hi");
        fsWrite.preview.set("+ hello (the file changed meanwhile)");
        RunOutcome outcome = loop.resumeApproval(state, harness.agent, TestDecisions.approveAll(state,
                harness.jonas));
        assertThat(outcome).isInstanceOfSatisfying(RunOutcome.WaitingForApproval.class, again -> {
            assertThat(again.state().calls().get(1).stale()).isTrue();
            assertThat(again.state().calls().get(1).preview().lines())
                    .containsExactly("+ hello (the file changed meanwhile)");
            assertThat(again.state().digest()).isNotEqualTo(state.digest());
        });
        assertThat(fsRead.executed).isEmpty();
        assertThat(fsWrite.executed).isEmpty();
    }

    @Test
    void aDecisionThatDoesNotFitTheWaitingCallsIsRefusedAndExecutesNothing() {
        ToolLoop loop = harness.loop(script(calls(READ_A, WRITE_B), answer("ok")));
        PausedState state = ((RunOutcome.WaitingForApproval) loop.runLoop(harness.request("edit"))).state();
        assertThatThrownBy(() -> loop.resumeApproval(state, harness.agent, TestDecisions.approval(state, harness.jonas,
                List.of()))).isInstanceOf(RunStateException.class).hasMessageContaining("have no verdict");
        assertThatThrownBy(() -> loop.resumeApproval(state, harness.agent, TestDecisions.approval(state, harness.jonas,
                List.of(Decision.CallVerdict.approve(0), Decision.CallVerdict.approve(1)))))
                .isInstanceOf(RunStateException.class).hasMessageContaining("call 0").hasMessageContaining(
                        "does not wait for approval");
        assertThat(fsRead.executed).isEmpty();
        assertThat(fsWrite.executed).isEmpty();
    }

    @Test
    void aStateOfAnotherAgentOrKindIsRefused() {
        ToolLoop loop = harness.loop(script(calls(WRITE_B), answer("ok")));
        PausedState state = ((RunOutcome.WaitingForApproval) loop.runLoop(harness.request("edit"))).state();
        AgentConfiguration other = AgentConfiguration.of("other", ModelConfiguration.scripted("script"),
                List.of("files"));
        assertThatThrownBy(() -> loop.resumeApproval(state, other, TestDecisions.approveAll(state, harness.jonas)))
                .isInstanceOf(RunStateException.class).hasMessageContaining("belongs to agent \"helper\"");
        assertThatThrownBy(() -> loop.resumeInput(state, harness.agent, TestDecisions.input(state, harness.maria,
                TestTools.args("{}")))).isInstanceOf(RunStateException.class)
                .hasMessageContaining("is waiting_for_approval, not waiting_for_input");
        assertThat(fsWrite.executed).isEmpty();
    }

    @Test
    void inputResumeLaysTheDeclaredFieldsOverTheModelsArguments() {
        ToolLoop loop = harness.loop(script(calls(call("c3", "ask_user",
                "{\"question\": \"Which tone?\", \"answer\": \"model guess\", \"tone\": \"formal\"}")), answer("ok")));
        PausedState state = ((RunOutcome.WaitingForInput) loop.runLoop(harness.request("ask"))).state();
        RunOutcome outcome = loop.resumeInput(state, harness.agent, TestDecisions.input(state, harness.maria,
                TestTools.args("{\"answer\": \"from maria\", \"count\": 3, \"sneaky\": \"dropped\"}")));
        assertThat(outcome.status()).isEqualTo(RunStatus.COMPLETED);
        ObjectNode executed = askUser.executed.get(0);
        assertThat(executed.get("answer").asText()).isEqualTo("from maria");
        assertThat(executed.get("count").asInt()).isEqualTo(3);
        assertThat(executed.get("question").asText()).isEqualTo("Which tone?");
        assertThat(executed.has("sneaky")).isFalse();
        assertThat(executed.has("tone")).as("a declared field the person left empty is not the model's guess")
                .isFalse();
        assertThat(harness.events(EventType.INPUT_SUBMITTED)).singleElement()
                .satisfies(event -> assertThat(event.detail()).isNull());
    }

    @Test
    void invalidInputIsRefusedWithAnErrorPerFieldAndNothingExecutes() {
        ToolLoop loop = harness.loop(script(calls(READ_A, ASK), answer("ok")));
        PausedState state = ((RunOutcome.WaitingForInput) loop.runLoop(harness.request("ask"))).state();
        assertThatThrownBy(() -> loop.resumeInput(state, harness.agent, TestDecisions.input(state, harness.maria,
                TestTools.args("{\"count\": \"three\", \"tone\": \"loud\"}"))))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.errors())
                        .extracting(InputValidation.FieldError::field).containsExactly("answer", "count", "tone"));
        assertThat(fsRead.executed).isEmpty();
        assertThat(askUser.executed).isEmpty();
    }

    @Test
    void anApprovalBoundCallBesideAnInputCallIsRefusedAndRecordedAsUnapproved() {
        harness.settings = harness.settings.withApprovalSetting("web_fetch", false);
        ToolLoop loop = harness.loop(script(calls(ASK, call("c5", "web_fetch", "{}")), answer("ok")));
        PausedState state = ((RunOutcome.WaitingForInput) loop.runLoop(harness.request("ask"))).state();
        harness.settings = harness.settings.withApprovalSetting("web_fetch", true);
        RunOutcome outcome = loop.resumeInput(state, harness.agent, TestDecisions.input(state, harness.maria,
                TestTools.args("{\"answer\": \"yes\"}")));
        assertThat(fetch.executed).isEmpty();
        assertThat(resultOf(outcome, "c5")).contains("needs an operator's approval");
        assertThat(harness.events(EventType.WRITE_UNAPPROVED)).singleElement()
                .satisfies(event -> assertThat(event.toolName()).isEqualTo("web_fetch"));
    }

    @Test
    void aSecondInputToolInTheTurnIsRefused() {
        ToolLoop loop = harness.loop(script(calls(ASK, call("c6", "ask_user", "{\"question\": \"again?\"}")),
                answer("ok")));
        PausedState state = ((RunOutcome.WaitingForInput) loop.runLoop(harness.request("ask"))).state();
        RunOutcome outcome = loop.resumeInput(state, harness.agent, TestDecisions.input(state, harness.maria,
                TestTools.args("{\"answer\": \"yes\"}")));
        assertThat(askUser.executed).hasSize(1);
        assertThat(resultOf(outcome, "c6")).contains("needs typed input from a person");
    }

    @Test
    void anApprovalResumeRefusesAnInputCallInTheSameTurn() {
        ToolLoop loop = harness.loop(script(calls(WRITE_B, ASK), answer("ok")));
        PausedState state = ((RunOutcome.WaitingForApproval) loop.runLoop(harness.request("both"))).state();
        RunOutcome outcome = loop.resumeApproval(state, harness.agent, TestDecisions.approveAll(state,
                harness.jonas));
        assertThat(fsWrite.executed).hasSize(1);
        assertThat(askUser.executed).isEmpty();
        assertThat(resultOf(outcome, "c3")).contains("needs typed input from a person");
    }

    @Test
    void theRoundCapEndsWithALastAnswerWithoutToolsMarkedTruncated() {
        harness.agent = harness.agent.withMaxRounds(2);
        RunOutcome outcome = harness.loop(script(calls(READ_A), calls(call("c7", "fs_read", "{}")),
                "{\"content\": \"summary\", \"toolCalls\": [" + READ_A + "]}")).runLoop(harness.request("loop"));
        assertThat(outcome).isInstanceOfSatisfying(RunOutcome.Completed.class, done -> {
            assertThat(done.truncated()).isTrue();
            assertThat(done.answer()).isEqualTo("summary");
        });
        assertThat(harness.requests).hasSize(3);
        assertThat(harness.requests.get(2).tools()).isEmpty();
        assertThat(harness.requests.get(2).toolChoice()).isNull();
        assertThat(outcome.transcript().get(outcome.transcript().size() - 1).toolCalls()).isEmpty();
        assertThat(fsRead.executed).hasSize(2);
    }

    @Test
    void aToolsExceptionTextNeverReachesTheModel() {
        LoopHarness local = new LoopHarness(new TestTools.Throwing("boom"));
        RunOutcome outcome = local.loop(script(calls(call("c1", "boom", "{}")), answer("ok")))
                .runLoop(local.request("go"));
        assertThat(resultOf(outcome, "c1")).startsWith("Error: tool \"boom\" failed unexpectedly")
                .doesNotContain("secret-token-123").doesNotContain("IllegalStateException");
        assertThat(outcome.history().observations()).extracting(ToolInvocationObservation::outcome)
                .containsExactly(ToolInvocationObservation.Outcome.FAILED);
    }

    @Test
    void argumentsThatDoNotFitTheSchemaAreRefusedBeforeTheToolRuns() {
        RunOutcome outcome = harness.loop(script(calls(call("c1", "fs_read", "{\"path\": 42}")), answer("ok")))
                .runLoop(harness.request("read"));
        assertThat(fsRead.executed).isEmpty();
        assertThat(resultOf(outcome, "c1")).isEqualTo("Error: the arguments of \"fs_read\" do not fit its schema:"
                + " argument \"path\": must be a string, got 42. Nothing was executed.");
    }

    @Test
    void oversizeArgumentsAreRefused() {
        String big = "x".repeat(ToolLoop.MAX_ARGUMENT_BYTES);
        RunOutcome outcome = harness.loop(script(calls(call("c1", "fs_read", "{\"path\": \"" + big + "\"}")),
                answer("ok"))).runLoop(harness.request("read"));
        assertThat(fsRead.executed).isEmpty();
        assertThat(resultOf(outcome, "c1")).contains("more than the 100000 allowed");
    }

    @Test
    void anUnknownToolIsRefusedAsNotRegistered() {
        RunOutcome outcome = harness.loop(script(calls(call("c1", "rm_rf", "{}")), answer("ok")))
                .runLoop(harness.request("x"));
        assertThat(resultOf(outcome, "c1")).contains("reason: notRegistered");
        assertThat(harness.events(EventType.TOOL_DENIED)).extracting(GovernanceEvent::reasonCode)
                .containsExactly("notRegistered");
    }

    @Test
    void aProviderFailureFailsTheRunAndKeepsTheTranscript() {
        ToolLoop loop = harness.loop(request -> {
            if (request.messages().size() > 2) {
                throw new ModelException("timeout", "the model did not answer within 30 s");
            }
            return new AssistantTurn("", List.of(new ToolCall("c1", "fs_read", TestTools.args("{}"))),
                    TokenUsage.NONE);
        });
        RunOutcome outcome = loop.runLoop(harness.request("read"));
        assertThat(outcome).isInstanceOfSatisfying(RunOutcome.Failed.class, failed -> {
            assertThat(failed.reasonCode()).isEqualTo("provider_failed");
            assertThat(failed.message()).isEqualTo("the model did not answer within 30 s");
        });
        assertThat(outcome.transcript()).hasSize(3);
    }

    @Test
    void aFreshRunHasACompleteEmptyHistory() {
        RunOutcome outcome = harness.loop(script(answer("ok"))).runLoop(harness.request("hi"));
        assertThat(outcome.history()).isEqualTo(ToolInvocationHistory.emptyComplete());
    }

    @Test
    void skipAssemblyWithoutAnAuthoritativeHistoryIsIncomplete() {
        RunRequest request = new RunRequest(harness.agent, ToolExecutionContext.of(harness.maria, "run-1", null),
                List.of(ChatMessage.user("go on")), true, RunCounters.ZERO, RunOptions.DEFAULTS);
        assertThat(harness.loop(script(answer("ok"))).runLoop(request).history().complete()).isFalse();
    }

    @Test
    void aNonzeroSeedTakesTheAuthoritativeInitialHistory() {
        ToolInvocationHistory prior = ToolInvocationHistory.emptyComplete().with(new ToolInvocationObservation(
                "fs_read", ToolInvocationObservation.Outcome.OK, null));
        RunRequest request = new RunRequest(harness.agent, ToolExecutionContext.of(harness.maria, "run-1", null)
                .withInitialInvocationHistory(prior), List.of(ChatMessage.user("go on")), false,
                new RunCounters(1, TokenUsage.NONE), RunOptions.DEFAULTS);
        assertThat(harness.loop(script(answer("ok"))).runLoop(request).history()).isEqualTo(prior);
    }

    @Test
    void anUnattendedRunOffersOnlyToolsThatNeverPause() {
        RunOutcome outcome = harness.loop(script(calls(WRITE_B, READ_A), answer("ok")))
                .runLoop(harness.request("edit").withOptions(RunOptions.unattendedRun()));
        assertThat(harness.requests.get(0).tools()).extracting(ToolSpec::name).containsExactly("fs_read");
        assertThat(outcome.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(fsWrite.executed).isEmpty();
        assertThat(resultOf(outcome, "c2")).contains("reason: notOffered");
    }

    @Test
    void aCancelledRunAnswersTheCallsThatDidNotRun() {
        TestTools.Recording cancelling = new TestTools.Recording("stopper", ToolEffect.READ,
                DataClass.PUBLIC_CONTENT, "files") {
            @Override
            public ToolResult execute(ToolCallRequest request) {
                harnessCancel();
                return ToolResult.ok("stopping");
            }
        };
        LoopHarness local = new LoopHarness(cancelling, fsRead);
        cancelHook = () -> local.cancelled.add("run-1");
        RunOutcome outcome = local.loop(script(calls(call("c0", "stopper", "{}"), READ_A), answer("never")))
                .runLoop(local.request("go"));
        assertThat(outcome.status()).isEqualTo(RunStatus.CANCELLED);
        assertThat(fsRead.executed).isEmpty();
        assertThat(resultOf(outcome, "c0")).isEqualTo("stopping");
        assertThat(resultOf(outcome, "c1")).isEqualTo(
                "Error: the run was cancelled before this call ran. Nothing was executed.");
        assertThat(outcome.history().observations()).extracting(ToolInvocationObservation::outcome)
                .containsExactly(ToolInvocationObservation.Outcome.OK, ToolInvocationObservation.Outcome.CANCELLED);
    }

    @Test
    void aCallWhoseOutcomeIsUnknownStopsTheStretchFlaggedAndRunsNothingAfterIt() {
        TestTools.Recording vanishing = new TestTools.Recording("vanish", ToolEffect.READ,
                DataClass.PUBLIC_CONTENT, "files") {
            @Override
            public ToolResult execute(ToolCallRequest request) {
                return ToolResult.outcomeUnknown("server \"x\" went away during the call of vanish");
            }
        };
        LoopHarness local = new LoopHarness(vanishing, fsRead);
        RunOutcome outcome = local.loop(script(calls(call("c0", "vanish", "{}"), READ_A), answer("never")))
                .runLoop(local.request("go"));

        assertThat(outcome).isInstanceOfSatisfying(RunOutcome.OutcomeUnknown.class, unknown -> {
            assertThat(unknown.callId()).isEqualTo("c0");
            assertThat(unknown.reason()).isEqualTo("server \"x\" went away during the call of vanish");
        });
        assertThat(outcome.status()).isEqualTo(RunStatus.OUTCOME_UNKNOWN);
        assertThat(fsRead.executed).isEmpty();
        assertThat(local.requests).as("the model is not asked again").hasSize(1);
        assertThat(outcome.transcript()).extracting(ChatMessage::role).doesNotContain(ChatMessage.Role.TOOL);
    }

    private Runnable cancelHook = () -> { };

    private void harnessCancel() {
        cancelHook.run();
    }

    @Test
    void aForcedToolChoiceIsSentOnlyWhenThatToolIsOffered() {
        harness.loop(script(answer("ok"))).runLoop(harness.request("x").withOptions(new RunOptions(false,
                "fs_read", java.util.Map.of())));
        harness.loop(script(answer("ok"))).runLoop(harness.request("x").withOptions(new RunOptions(false,
                "net_post", java.util.Map.of())));
        assertThat(harness.requests).extracting(ChatRequest::toolChoice).containsExactly("fs_read", null);
    }

    @Test
    void theSystemPromptIsAssembledBeforeTheMessages() {
        harness.agent = harness.agent.withSystemPrompt("You edit release notes.");
        harness.loop(script(answer("ok"))).runLoop(harness.request("hi"));
        assertThat(harness.requests.get(0).messages()).containsExactly(
                ChatMessage.system("You edit release notes."), ChatMessage.user("hi"));
    }

    @Test
    void approvedCallsRunUnderTheRunOwnersIdentity() {
        java.util.List<ToolExecutionContext> seen = new java.util.ArrayList<>();
        TestTools.Recording owned = new TestTools.Recording("owned_write", ToolEffect.WRITE,
                DataClass.PUBLIC_CONTENT, "files") {
            @Override
            public ToolResult execute(ToolCallRequest request) {
                seen.add(request.context());
                return ToolResult.ok("ok");
            }
        };
        LoopHarness local = new LoopHarness(owned);
        ToolLoop loop = local.loop(script(calls(call("c1", "owned_write", "{}")), answer("ok")));
        PausedState state = ((RunOutcome.WaitingForApproval) loop.runLoop(local.request("go"))).state();
        loop.resumeApproval(state, local.agent, TestDecisions.approveAll(state, local.jonas));
        assertThat(seen).singleElement().satisfies(context -> {
            assertThat(context.actingUser().name()).isEqualTo("maria");
            assertThat(context.locale()).isEqualTo(Locale.ENGLISH);
        });
    }
}
