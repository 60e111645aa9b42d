package io.countersign.engine;

import static io.countersign.engine.LoopHarness.answer;
import static io.countersign.engine.LoopHarness.call;
import static io.countersign.engine.LoopHarness.calls;
import static io.countersign.engine.LoopHarness.resultOf;
import static io.countersign.engine.LoopHarness.script;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.engine.call.ToolExecutionContext;
import io.countersign.engine.call.ToolInvocationTarget;
import io.countersign.engine.event.EventType;
import io.countersign.engine.invocation.InvocationRules;
import io.countersign.engine.port.ScriptedChatModel;
import io.countersign.engine.run.RunRequest;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.PausedStateCodec;
import io.countersign.engine.state.PendingCall;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.run.ToolLoop;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built-in {@code workspace.boundary} in the loop, in the demo's shape: one turn writes a file inside the
 * workspace folder {@code release-notes} and deletes {@code ../outside.txt}. The card shows the write waiting and
 * the delete already refused, explained in the language of the person behind the run.
 */
class WorkspaceBoundaryInTheLoopTest {
    private static final String TURN = calls(call("c1", "fs_write", "{\"path\": \"NOTES.md\", \"content\": \"v2\"}"),
            call("c2", "fs_delete", "{\"path\": \"../outside.txt\"}"));

    private final TestTools.Recording fsWrite = TestTools.write("fs_write");
    private final TestTools.Recording fsDelete = TestTools.write("fs_delete");
    private final LoopHarness harness = new LoopHarness(fsWrite, fsDelete);
    private ToolLoop loop;

    @BeforeEach
    void giveTheAgentTheReleaseNotesFolder(@TempDir Path folder) throws IOException {
        Path workspace = Files.createDirectory(folder.resolve("release-notes"));
        harness.agent = harness.agent.withWorkspace(workspace.toString());
        loop = harness.loop(ScriptedChatModel.fromJson(script(TURN, answer("done"))),
                InvocationRules.discover(List.of(), List.of()));
    }

    @Test
    void theCardShowsTheWriteWaitingAndTheDeleteRefusedInEnglish() {
        PausedState card = pause(Locale.ENGLISH);

        assertThat(card.awaitingApproval()).extracting(c -> c.call().id()).containsExactly("c1");
        assertThat(card.refused()).singleElement().satisfies(call -> {
            assertThat(call.call().id()).isEqualTo("c2");
            assertThat(call.refusal()).isEqualTo(new PendingCall.Refusal("workspace.boundary", "outside_workspace",
                    "Keep file access inside the workspace folder \"release-notes\"."));
        });
    }

    @Test
    void theCardExplainsTheRefusalInGermanForAGermanPerson() {
        PausedState card = pause(Locale.GERMAN);

        assertThat(card.refused()).singleElement().satisfies(call -> assertThat(call.refusal().explanation())
                .isEqualTo("Greifen Sie nur auf Dateien im Arbeitsordner „release-notes“ zu."));
    }

    @Test
    void theWaitingWriteIsNamedByItsWorkspaceRelativeTarget() {
        PausedState card = pause(Locale.ENGLISH);

        assertThat(card.awaitingApproval()).singleElement().extracting(PendingCall::target)
                .isEqualTo(new ToolInvocationTarget("file", "NOTES.md"));
    }

    @Test
    void theRefusedDeleteIsRecordedOnceBeforeTheCardIsShown() {
        pause(Locale.ENGLISH);

        assertThat(harness.events(EventType.INVOCATION_DENIED)).singleElement().satisfies(event -> {
            assertThat(event.toolName()).isEqualTo("fs_delete");
            assertThat(event.ruleId()).isEqualTo("workspace.boundary");
            assertThat(event.reasonCode()).isEqualTo("outside_workspace");
        });
    }

    @Test
    void approvingTheCardRunsTheWriteAndRefusesTheDeleteWithItsExplanation() {
        PausedState card = PausedStateCodec.fromJson(PausedStateCodec.toJson(pause(Locale.ENGLISH)));

        RunOutcome outcome = loop.resumeApproval(card, harness.agent, TestDecisions.approveAll(card,
                harness.jonas));

        assertThat(fsWrite.executed).extracting(arguments -> arguments.path("path").asText())
                .containsExactly("NOTES.md");
        assertThat(fsDelete.executed).isEmpty();
        assertThat(resultOf(outcome, "c2")).isEqualTo("Error: invocation denied (rule: workspace.boundary, reason:"
                + " outside_workspace). Nothing was executed. Keep file access inside the workspace folder"
                + " \"release-notes\".");
        assertThat(harness.events(EventType.INVOCATION_DENIED)).hasSize(1);
        assertThat(outcome.status()).isEqualTo(RunStatus.COMPLETED);
    }

    private PausedState pause(Locale locale) {
        RunOutcome outcome = loop.runLoop(RunRequest.of(harness.agent,
                ToolExecutionContext.of(harness.maria, "run-1", locale), "tidy the release notes"));
        assertThat(outcome).isInstanceOf(RunOutcome.WaitingForApproval.class);
        return ((RunOutcome.WaitingForApproval) outcome).state();
    }
}
