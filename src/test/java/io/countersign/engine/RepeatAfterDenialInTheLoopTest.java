package io.countersign.engine;

import static io.countersign.engine.LoopHarness.answer;
import static io.countersign.engine.LoopHarness.call;
import static io.countersign.engine.LoopHarness.calls;
import static io.countersign.engine.LoopHarness.resultOf;
import static io.countersign.engine.LoopHarness.script;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.engine.call.ToolExecutionContext;
import io.countersign.engine.call.ToolInvocationObservation;
import io.countersign.engine.call.ToolInvocationTarget;
import io.countersign.engine.chat.ChatMessage;
import io.countersign.engine.event.EventType;
import io.countersign.engine.invocation.InvocationRules;
import io.countersign.engine.port.ScriptedChatModel;
import io.countersign.engine.run.RunRequest;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.PausedStateCodec;
import io.countersign.engine.state.RunCounters;
import io.countersign.engine.state.RunOptions;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.run.ToolLoop;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built-in {@code repeat.after.denial} in the loop: an operator denies a write, and the model asks for the same
 * write in its next turn. The rule reads the history, so it is not asked before the card: the repeated write is
 * shown for approval again, and refused if it is approved. Every pause is stored as JSON and read back.
 */
class RepeatAfterDenialInTheLoopTest {
    private static final ToolInvocationTarget NOTES = new ToolInvocationTarget("file", "NOTES.md");

    private final TestTools.Recording fsWrite = TestTools.write("fs_write");
    private final TestTools.Recording fsRead = TestTools.read("fs_read");
    private final LoopHarness harness = new LoopHarness(fsWrite, fsRead);
    private final InvocationRules rules = InvocationRules.discover(List.of(), List.of());

    @BeforeEach
    void giveTheAgentAWorkspace(@TempDir Path workspace) {
        harness.agent = harness.agent.withWorkspace(workspace.toString());
    }

    @Test
    void theRepeatedWriteIsShownForApprovalAgain() {
        PausedState second = deniedOnceThenAskedAgain("NOTES.md", Locale.ENGLISH).state;

        assertThat(second.awaitingApproval()).extracting(c -> c.call().id()).containsExactly("c2");
        assertThat(second.refused()).isEmpty();
    }

    @Test
    void theOperatorsDenialIsRememberedWithItsTargetThroughTheStoredPause() {
        PausedState second = deniedOnceThenAskedAgain("NOTES.md", Locale.ENGLISH).state;

        assertThat(second.history().complete()).isTrue();
        assertThat(second.history().observations()).containsExactly(new ToolInvocationObservation("fs_write",
                ToolInvocationObservation.Outcome.DENIED, NOTES));
    }

    @Test
    void approvingTheRepeatedWriteRefusesItAsRepeatedAfterDenial() {
        RunOutcome outcome = deniedOnceThenAskedAgain("NOTES.md", Locale.ENGLISH).approve();

        assertThat(fsWrite.executed).isEmpty();
        assertThat(resultOf(outcome, "c2")).isEqualTo("Error: invocation denied (rule: repeat.after.denial,"
                + " reason: repeated_after_denial). Nothing was executed. Choose a different step: this call on"
                + " \"NOTES.md\" was already refused in this run.");
        assertThat(harness.events(EventType.INVOCATION_DENIED)).singleElement().satisfies(event -> {
            assertThat(event.ruleId()).isEqualTo("repeat.after.denial");
            assertThat(event.reasonCode()).isEqualTo("repeated_after_denial");
            assertThat(event.toolName()).isEqualTo("fs_write");
        });
        assertThat(outcome.status()).isEqualTo(RunStatus.COMPLETED);
    }

    @Test
    void theRepeatRefusalIsExplainedInThePersonsLanguage() {
        RunOutcome outcome = deniedOnceThenAskedAgain("NOTES.md", Locale.GERMAN).approve();

        assertThat(resultOf(outcome, "c2")).endsWith("Nothing was executed. Wählen Sie einen anderen Schritt:"
                + " Dieser Aufruf für „NOTES.md“ wurde in diesem Lauf bereits abgelehnt.");
    }

    @Test
    void theSameFileUnderAnotherSpellingIsARepeat() {
        RunOutcome outcome = deniedOnceThenAskedAgain("drafts/../NOTES.md", Locale.ENGLISH).approve();

        assertThat(fsWrite.executed).isEmpty();
        assertThat(resultOf(outcome, "c2")).contains("reason: repeated_after_denial");
    }

    @Test
    void aWriteOfAnotherFileIsNoRepeat() {
        RunOutcome outcome = deniedOnceThenAskedAgain("CHANGES.md", Locale.ENGLISH).approve();

        assertThat(fsWrite.executed).extracting(arguments -> arguments.path("path").asText())
                .containsExactly("CHANGES.md");
        assertThat(harness.events(EventType.INVOCATION_DENIED)).isEmpty();
    }

    @Test
    void denyingTheRepeatedWriteAgainIsTheOperatorsRefusalAlone() {
        Paused second = deniedOnceThenAskedAgain("NOTES.md", Locale.ENGLISH);
        RunOutcome outcome = second.loop.resumeApproval(second.state, harness.agent,
                TestDecisions.denyAll(second.state, harness.jonas, "still no"));

        assertThat(resultOf(outcome, "c2")).isEqualTo("Error: declined by jonas: still no. Nothing was executed.");
        assertThat(harness.events(EventType.INVOCATION_DENIED)).isEmpty();
    }

    @Test
    void withoutAProvableHistoryEveryCallIsRefusedHistoryIncomplete() {
        RunRequest unproven = new RunRequest(harness.agent, ToolExecutionContext.of(harness.maria, "run-1",
                Locale.ENGLISH), List.of(ChatMessage.user("read the notes")), true, RunCounters.ZERO,
                RunOptions.DEFAULTS);

        RunOutcome outcome = harness.loop(ScriptedChatModel.fromJson(script(
                calls(call("c1", "fs_read", "{\"path\": \"NOTES.md\"}")), answer("ok"))), rules).runLoop(unproven);

        assertThat(fsRead.executed).isEmpty();
        assertThat(resultOf(outcome, "c1")).isEqualTo("Error: invocation denied (rule: repeat.after.denial,"
                + " reason: history_incomplete). Nothing was executed.");
    }

    /** The second pause, read back from its JSON, and the loop to resume it with. */
    private final class Paused {
        final ToolLoop loop;
        final PausedState state;

        Paused(ToolLoop loop, PausedState state) {
            this.loop = loop;
            this.state = state;
        }

        RunOutcome approve() {
            return loop.resumeApproval(state, harness.agent, TestDecisions.approveAll(state, harness.jonas));
        }
    }

    /** An operator denies the write of NOTES.md; the model then asks to write {@code secondPath}. */
    private Paused deniedOnceThenAskedAgain(String secondPath, Locale locale) {
        ToolLoop loop = harness.loop(ScriptedChatModel.fromJson(script(
                calls(call("c1", "fs_write", "{\"path\": \"NOTES.md\"}")),
                calls(call("c2", "fs_write", "{\"path\": \"" + secondPath + "\"}")),
                answer("ok"))), rules);
        RunOutcome first = loop.runLoop(RunRequest.of(harness.agent,
                ToolExecutionContext.of(harness.maria, "run-1", locale), "update the notes"));
        PausedState firstPause = stored(first);
        RunOutcome second = loop.resumeApproval(firstPause, harness.agent,
                TestDecisions.denyAll(firstPause, harness.jonas, "keep the notes as they are"));
        return new Paused(loop, stored(second));
    }

    private static PausedState stored(RunOutcome outcome) {
        assertThat(outcome).isInstanceOf(RunOutcome.WaitingForApproval.class);
        return PausedStateCodec.fromJson(PausedStateCodec.toJson(((RunOutcome.WaitingForApproval) outcome).state()));
    }
}
