package io.countersign.engine;

import static io.countersign.engine.LoopHarness.answer;
import static io.countersign.engine.LoopHarness.call;
import static io.countersign.engine.LoopHarness.calls;
import static io.countersign.engine.LoopHarness.script;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.call.InvocationVerdict;
import io.countersign.engine.call.ToolInvocationDecision;
import io.countersign.engine.call.ToolInvocationHistory;
import io.countersign.engine.call.ToolInvocationObservation;
import io.countersign.engine.call.ToolInvocationTarget;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.PausedStateCodec;
import io.countersign.engine.state.PendingCall;
import io.countersign.engine.state.RunOptions;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.state.RunStateException;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.run.ToolLoop;
import io.countersign.engine.tool.ToolPreview;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PausedStateCodecTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final TestTools.Recording fsWrite = TestTools.write("fs_write");
    private final LoopHarness harness = new LoopHarness(TestTools.read("fs_read"), fsWrite,
            new TestTools.Input("ask_user"));

    private PausedState approvalPause() {
        fsWrite.preview.set("+ ## 2.4 — faster sync");
        harness.preApprovalPolicy = context -> context.arguments().path("path").asText().startsWith("/")
                ? new InvocationVerdict(ToolInvocationDecision.deny("outside_workspace", "Keep it inside."),
                "workspace.boundary", null)
                : InvocationVerdict.allowed(new ToolInvocationTarget("file", context.arguments().path("path").asText()));
        RunOutcome outcome = harness.loop(script(calls(call("c1", "fs_write", "{\"path\": \"NOTES.md\"}"),
                call("c2", "fs_write", "{\"path\": \"/etc/passwd\"}"), call("c3", "fs_read", "{}"))))
                .runLoop(harness.request("tidy").withOptions(new RunOptions(false, "auto",
                        java.util.Map.of("tenant", "acme"))));
        return ((RunOutcome.WaitingForApproval) outcome).state();
    }

    private PausedState inputPause() {
        RunOutcome paused = harness.loop(script(calls(call("c1", "ask_user", "{\"question\": \"Tone?\"}"))))
                .runLoop(harness.request("ask"));
        return ((RunOutcome.WaitingForInput) paused).state();
    }

    @Test
    void anApprovalPauseSurvivesTheRoundTripWhole() {
        PausedState state = approvalPause();
        PausedState back = PausedStateCodec.fromJson(PausedStateCodec.toJson(state));
        assertThat(back).isEqualTo(state);
        assertThat(back.refused()).singleElement().satisfies(call -> {
            assertThat(call.refusal().explanation()).isEqualTo("Keep it inside.");
            assertThat(call.refusal().ruleIdentifier()).isEqualTo("workspace.boundary");
        });
        assertThat(back.awaitingApproval().get(0).target()).isEqualTo(new ToolInvocationTarget("file", "NOTES.md"));
        assertThat(back.digest()).isEqualTo(state.digest());
    }

    @Test
    void aStateWrittenWithItsTranscriptAndHistoryGivenAsTextIsTheSameText() {
        PausedState state = approvalPause();
        String transcript = PausedStateCodec.transcriptToTree(state.transcript()).toString();
        String history = PausedStateCodec.historyToTree(state.history()).toString();

        assertThat(PausedStateCodec.toJson(state, transcript, history)).isEqualTo(PausedStateCodec.toJson(state));
    }

    @Test
    void anInputPauseSurvivesTheRoundTripWhole() {
        PausedState state = inputPause();
        assertThat(PausedStateCodec.fromJson(PausedStateCodec.toJson(state))).isEqualTo(state);
    }

    @Test
    void anInputFieldKeepsItsSchemaThroughJsonAndAFieldWithoutOneIsWrittenAsBefore() {
        PausedState state = inputPause();
        ObjectNode toolSchema = JSON.createObjectNode().put("type", "object");
        toolSchema.putObject("properties").putObject("answer").put("type", "string").put("maxLength", 5);
        PausedState withSchema = state.toBuilder().inputFields(state.inputFields().stream()
                .map(field -> field.withSchemaOf(toolSchema)).toList()).build();

        PausedState back = PausedStateCodec.fromJson(PausedStateCodec.toJson(withSchema));

        assertThat(back).isEqualTo(withSchema);
        assertThat(back.inputFields().get(0).schema().path("maxLength").asInt()).isEqualTo(5);
        assertThat(back.digest()).isEqualTo(withSchema.digest()).isNotEqualTo(state.digest());
        // a state paused before fields had schemas keeps the digest its card was shown with
        PausedState before = state.toBuilder().inputFields(new TestTools.Input("ask_user").inputFields()).build();
        assertThat(PausedStateCodec.toJson(before)).doesNotContain("\"schema\"");
    }

    @Test
    void aRoundTrippedStateResumesInAnotherLoop() {
        PausedState stored = PausedStateCodec.fromJson(PausedStateCodec.toJson(approvalPause()));
        ToolLoop another = harness.loop(script(calls(), answer("done")));
        RunOutcome outcome = another.resumeApproval(stored, harness.agent, TestDecisions.approveAll(stored,
                harness.jonas));
        assertThat(outcome.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(fsWrite.executed).hasSize(1);
    }

    @Test
    void finishedOutcomesKeepTheirTranscriptAndHistoryThroughJson() {
        RunOutcome done = harness.loop(script(calls(call("c1", "fs_read", "{}")), answer("fine")))
                .runLoop(harness.request("read"));
        assertThat(PausedStateCodec.transcriptFromTree(PausedStateCodec.transcriptToTree(done.transcript())))
                .isEqualTo(done.transcript());
        assertThat(PausedStateCodec.historyFromTree(PausedStateCodec.historyToTree(done.history())))
                .isEqualTo(done.history());
    }

    private void assertDamaged(Consumer<ObjectNode> damage, String message) throws Exception {
        ObjectNode root = (ObjectNode) JSON.readTree(PausedStateCodec.toJson(approvalPause()));
        damage.accept(root);
        assertThatThrownBy(() -> PausedStateCodec.fromJson(root.toString()))
                .isInstanceOf(RunStateException.class).hasMessageContaining(message);
    }

    @Test
    void textThatIsNotJsonIsRefused() {
        assertThatThrownBy(() -> PausedStateCodec.fromJson("{\"format\": 1, \"runId\": "))
                .isInstanceOf(RunStateException.class).hasMessageContaining("not valid JSON");
        assertThatThrownBy(() -> PausedStateCodec.fromJson("[1, 2]"))
                .isInstanceOf(RunStateException.class).hasMessageContaining("expected a JSON object");
    }

    @Test
    void aMissingFieldIsNamed() throws Exception {
        assertDamaged(root -> root.remove("runId"), "field \"runId\" is missing");
        assertDamaged(root -> ((ObjectNode) root.get("calls").get(0).get("call")).remove("name"),
                "field \"calls[0].call.name\" is missing");
    }

    @Test
    void aFieldOfTheWrongTypeIsNamed() throws Exception {
        assertDamaged(root -> ((ObjectNode) root.get("counters")).put("iterations", "two"),
                "field \"counters.iterations\" must be an integer");
        assertDamaged(root -> root.put("transcript", "lost"), "field \"transcript\" must be an array");
        assertDamaged(root -> ((ObjectNode) root.get("calls").get(0)).put("stale", "no"),
                "field \"calls[0].stale\" must be true or false");
    }

    @Test
    void anUnknownStatusOrDispositionIsRefused() throws Exception {
        assertDamaged(root -> root.put("status", "sleeping"), "\"status\" has the unknown value \"sleeping\"");
        assertDamaged(root -> ((ObjectNode) root.get("calls").get(0)).put("disposition", "maybe"),
                "\"calls[0].disposition\" has the unknown value \"maybe\"");
    }

    @Test
    void aFinishedStatusIsNotAPause() throws Exception {
        assertDamaged(root -> root.put("status", "completed"), "must be waiting, not completed");
    }

    @Test
    void callsThatDoNotFitTheTranscriptAreRefused() throws Exception {
        assertDamaged(root -> ((ArrayNode) root.get("calls")).remove(2), "asked for 3 calls but 2 are pending");
        assertDamaged(root -> ((ObjectNode) root.get("calls").get(1).get("call")).put("id", "forged"),
                "pending call 1 has id \"forged\"");
        assertDamaged(root -> ((ArrayNode) root.get("transcript")).remove(1),
                "must end with the assistant turn");
    }

    @Test
    void aStateWithNothingWaitingIsRefused() throws Exception {
        assertDamaged(root -> ((ObjectNode) root.get("calls").get(0)).put("disposition", "runs_on_resume"),
                "an approval pause needs at least one call that awaits approval");
    }

    @Test
    void aRefusalWithoutItsRuleIsRefused() throws Exception {
        assertDamaged(root -> ((ObjectNode) root.get("calls").get(1).get("refusal")).put("rule", "Bad Rule"),
                "rule identifier \"Bad Rule\" must match");
    }

    @Test
    void aStateFromANewerFormatSaysSo() throws Exception {
        assertDamaged(root -> root.put("format", 2), "written by a newer Countersign");
    }

    @Test
    void anOversizePreviewIsRefused() throws Exception {
        assertDamaged(root -> ((ArrayNode) root.get("calls").get(0).get("preview")).add("x".repeat(501)),
                "at most 500 characters");
    }

    @Test
    void aDamagedHistoryLoadsAsIncompleteAndKeepsWhatItCanRead() throws Exception {
        ObjectNode history = (ObjectNode) JSON.readTree("{\"complete\": true, \"observations\": ["
                + "{\"tool\": \"fs_read\", \"outcome\": \"ok\", \"target\": null},"
                + "{\"tool\": \"fs_write\", \"outcome\": \"exploded\", \"target\": null}]}");
        ToolInvocationHistory loaded = PausedStateCodec.historyFromTree(history);
        assertThat(loaded.complete()).isFalse();
        assertThat(loaded.observations()).extracting(ToolInvocationObservation::toolName).containsExactly("fs_read");
    }

    @Test
    void everyKindOfHistoryDamageYieldsAnIncompleteHistory() throws Exception {
        for (String damaged : List.of("{\"observations\": []}", "{\"complete\": \"yes\", \"observations\": []}",
                "{\"complete\": true}", "{\"complete\": true, \"observations\": [{\"tool\": 3, \"outcome\": \"ok\"}]}",
                "{\"complete\": true, \"observations\": [{\"tool\": \"t\", \"outcome\": \"ok\","
                        + " \"target\": {\"kind\": \"file\", \"identifier\": \" \"}}]}",
                "{\"complete\": true, \"observations\": [{\"tool\": \"t\", \"outcome\": \"ok\", \"extra\": 1}]}",
                "null")) {
            assertThat(PausedStateCodec.historyFromTree(JSON.readTree(damaged)).complete()).as(damaged).isFalse();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "Fs_read", "fs read", "1fs", "fs_read!"})
    void anObservationWithABlankOrMalformedToolNameMakesTheLoadedHistoryIncomplete(String tool) throws Exception {
        ObjectNode history = (ObjectNode) JSON.readTree("{\"complete\": true, \"observations\": ["
                + "{\"tool\": \"fs_read\", \"outcome\": \"ok\", \"target\": null},"
                + "{\"tool\": " + JSON.writeValueAsString(tool) + ", \"outcome\": \"ok\", \"target\": null}]}");
        ToolInvocationHistory loaded = PausedStateCodec.historyFromTree(history);
        assertThat(loaded.complete()).isFalse();
        assertThat(loaded.observations()).extracting(ToolInvocationObservation::toolName).containsExactly("fs_read");
        assertThat(loaded.with(new ToolInvocationObservation("fs_write", ToolInvocationObservation.Outcome.OK, null))
                .complete()).isFalse();
    }

    @Test
    void aStateWhoseHistoryHasABlankToolNameStaysIncompleteAfterTheResumeAppends() throws Exception {
        ObjectNode root = (ObjectNode) JSON.readTree(PausedStateCodec.toJson(approvalPause()));
        ((ArrayNode) root.get("history").get("observations")).addObject().put("tool", " ").put("outcome", "ok")
                .putNull("target");
        PausedState loaded = PausedStateCodec.fromJson(root.toString());
        assertThat(loaded.history().complete()).isFalse();
        RunOutcome outcome = harness.loop(script(calls(), answer("done"))).resumeApproval(loaded, harness.agent,
                TestDecisions.approveAll(loaded, harness.jonas));
        assertThat(outcome.history().observations()).isNotEmpty();
        assertThat(outcome.history().complete()).isFalse();
    }

    @Test
    void aStateWithADamagedHistoryStillLoadsButItsHistoryStaysIncomplete() throws Exception {
        ObjectNode root = (ObjectNode) JSON.readTree(PausedStateCodec.toJson(approvalPause()));
        ((ObjectNode) root.get("history")).remove("complete");
        PausedState loaded = PausedStateCodec.fromJson(root.toString());
        assertThat(loaded.history().complete()).isFalse();
        RunOutcome outcome = harness.loop(script(calls(), answer("done"))).resumeApproval(loaded, harness.agent,
                TestDecisions.approveAll(loaded, harness.jonas));
        assertThat(outcome.history().complete()).isFalse();
    }

    @Test
    void theDigestChangesWhenWhatThePersonSeesChanges() {
        PausedState state = approvalPause();
        PendingCall first = state.calls().get(0);
        List<PendingCall> changed = new java.util.ArrayList<>(state.calls());
        changed.set(0, first.withPreview(new ToolPreview(List.of("+ something else")), false));
        PausedState other = state.toBuilder().calls(changed).build();
        assertThat(other.digest()).isNotEqualTo(state.digest()).hasSize(64);
    }

    @Test
    void theDigestOfTextOfEveryKindIsTheOneStoredCardsWereShownWith() {
        // quotes, a control character, accents, an emoji (a surrogate pair) and a lone surrogate, pinned: stored
        // cards carry digests made from these very bytes, and a changed digest would read as a changed card
        fsWrite.preview.set("+ \"Grüße\" \u0007 — 🚀 \ud800 end");
        RunOutcome outcome = harness.loop(script(calls(call("c1", "fs_write", "{\"path\": \"naïve 🚀.md\"}"))))
                .runLoop(harness.request("tidy"));
        PausedState state = ((RunOutcome.WaitingForApproval) outcome).state();
        assertThat(state.digest()).isEqualTo("c94cac0ae86b171079aa5f550ac17338fe72a3144706d1c409a1b72c7e01831a");
    }
}
