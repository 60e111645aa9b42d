package io.countersign.engine;

import static io.countersign.engine.LoopHarness.answer;
import static io.countersign.engine.LoopHarness.call;
import static io.countersign.engine.LoopHarness.calls;
import static io.countersign.engine.LoopHarness.resultOf;
import static io.countersign.engine.LoopHarness.script;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.engine.call.ToolInvocationDecision;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.event.EventType;
import io.countersign.engine.invocation.InvocationRules;
import io.countersign.engine.invocation.ToolInvocationContext;
import io.countersign.engine.port.ScriptedChatModel;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.PausedStateCodec;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.run.ToolLoop;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Canaries through a whole run with the real invocation rules: several turns, two approval pauses (stored as JSON
 * and read back), an approval and a denial. One rule throws with a secret in its message; another refuses with
 * an explanation. The secret must surface nowhere; the explanation only where the person behind the run and the
 * model read it.
 */
class InvocationRulesCanaryTest {
    private static final String SECRET = "CANARY-SECRET-7Q2X";
    private static final String EXPLAINED = "CANARY-EXPLAINED-5K9W";

    private final TestTools.Recording fsRead = TestTools.read("fs_read");
    private final TestTools.Recording fsWrite = TestTools.write("fs_write");
    private final TestTools.Recording fsDelete = TestTools.write("fs_delete");
    private final LoopHarness harness = new LoopHarness(fsRead, fsWrite, fsDelete);
    private Played played;

    /** Everything the run left behind, as text. */
    private record Played(RunOutcome outcome, List<PausedState> pauses, List<String> pausedJson, String logged,
                          String written) {
        String transcript() {
            return outcome.transcript().toString();
        }

        String history() {
            return outcome.history() + " " + PausedStateCodec.historyToTree(outcome.history());
        }
    }

    @BeforeEach
    void play(@TempDir Path workspace) {
        harness.agent = harness.agent.withWorkspace(workspace.toString());
        InvocationRules rules = InvocationRules.discover(List.of(
                CountingRule.marked("canary.thrower", onPath("boom.md", () -> {
                    throw new IllegalStateException("rule broke on " + SECRET,
                            new IllegalArgumentException("cause holds " + SECRET));
                })),
                CountingRule.marked("canary.explainer", onPath("private.md", () -> ToolInvocationDecision.deny(
                        "private_file", "Leave the private notes alone (" + EXPLAINED + ")."))),
                CountingRule.answering("canary.late-thrower", onPath("crash.md", () -> {
                    throw new IllegalStateException(SECRET);
                })),
                CountingRule.answering("canary.late-explainer", onPath("diary.md", () -> ToolInvocationDecision.deny(
                        "diary_closed", "The diary is closed (" + EXPLAINED + ").")))), List.of());
        ToolLoop loop = harness.loop(ScriptedChatModel.fromJson(script(
                calls(write("c1", "boom.md"), write("c2", "private.md"), read("c3", "crash.md")),
                calls(read("c4", "diary.md"), read("c5", "ok.md")),
                calls(call("c6", "fs_delete", path("boom.md")), write("c7", "private.md")),
                calls(write("c8", "private.md")),
                answer("finished"))), rules);

        List<PausedState> pauses = new ArrayList<>();
        List<String> pausedJson = new ArrayList<>();
        try (CapturedOutput output = CapturedOutput.start()) {
            RunOutcome outcome = loop.runLoop(harness.request("tidy the notes"));
            while (outcome instanceof RunOutcome.WaitingForApproval waiting) {
                String json = PausedStateCodec.toJson(waiting.state());
                pauses.add(waiting.state());
                pausedJson.add(json);
                PausedState stored = PausedStateCodec.fromJson(json);
                Decision.Approval decision = pauses.size() == 1 ? TestDecisions.approveAll(stored, harness.jonas)
                        : TestDecisions.denyAll(stored, harness.jonas, "not today");
                outcome = loop.resumeApproval(stored, harness.agent, decision);
            }
            played = new Played(outcome, pauses, pausedJson, output.logged(), output.written());
        }
        assertThat(played.outcome().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(played.pauses()).hasSize(2);
    }

    @Test
    void theThrowingRulesRefuseTheirCallsAsRuleFailed() {
        assertThat(resultOf(played.outcome(), "c1")).isEqualTo(
                "Error: invocation denied (rule: canary.thrower, reason: rule_failed). Nothing was executed.");
        assertThat(resultOf(played.outcome(), "c3")).isEqualTo(
                "Error: invocation denied (rule: canary.late-thrower, reason: rule_failed). Nothing was executed.");
        assertThat(fsWrite.executed).isEmpty();
        assertThat(fsRead.executed).extracting(arguments -> arguments.path("path").asText()).containsExactly("ok.md");
    }

    @Test
    void theThrownSecretAppearsNowhere() {
        assertThat(played.transcript()).doesNotContain(SECRET);
        assertThat(harness.events.toString()).doesNotContain(SECRET);
        assertThat(played.history()).doesNotContain(SECRET);
        assertThat(played.pausedJson()).allSatisfy(json -> assertThat(json).doesNotContain(SECRET));
        assertThat(played.pauses()).allSatisfy(state -> assertThat(state.toString()).doesNotContain(SECRET));
        assertThat(played.logged()).doesNotContain(SECRET);
        assertThat(played.written()).doesNotContain(SECRET);
    }

    @Test
    void theLogNamesAThrowingRuleAndTheExceptionClassOnly() {
        assertThat(played.logged()).contains("canary.thrower", "canary.late-thrower",
                IllegalStateException.class.getName());
    }

    @Test
    void theExplanationReachesTheModel() {
        assertThat(List.of("c2", "c4", "c7", "c8")).allSatisfy(id ->
                assertThat(resultOf(played.outcome(), id)).as("result of %s", id).contains(EXPLAINED));
    }

    @Test
    void theExplanationIsOnTheCard() {
        assertThat(played.pauses()).allSatisfy(state -> assertThat(state.refused()).singleElement()
                .satisfies(call -> assertThat(call.refusal().explanation()).contains(EXPLAINED)));
    }

    @Test
    void theExplanationIsInNoEventNoHistoryAndNoLog() {
        assertThat(harness.events(EventType.INVOCATION_DENIED)).hasSize(6);
        assertThat(harness.events.toString()).doesNotContain(EXPLAINED);
        assertThat(played.history()).doesNotContain(EXPLAINED);
        assertThat(played.pauses()).allSatisfy(state -> assertThat(
                PausedStateCodec.historyToTree(state.history()).toString()).doesNotContain(EXPLAINED));
        assertThat(played.logged()).doesNotContain(EXPLAINED);
        assertThat(played.written()).doesNotContain(EXPLAINED);
    }

    /** A rule's answer: as {@code onMatch} for calls on the given path, else allow. */
    private static Function<ToolInvocationContext, ToolInvocationDecision> onPath(
            String path, Supplier<ToolInvocationDecision> onMatch) {
        return context -> path.equals(context.arguments().path("path").asText())
                ? onMatch.get() : ToolInvocationDecision.allow();
    }

    private static String write(String id, String file) {
        return call(id, "fs_write", path(file));
    }

    private static String read(String id, String file) {
        return call(id, "fs_read", path(file));
    }

    private static String path(String file) {
        return "{\"path\": \"" + file + "\"}";
    }
}
