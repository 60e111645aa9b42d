package io.countersign.engine;

import static io.countersign.engine.LoopHarness.answer;
import static io.countersign.engine.LoopHarness.call;
import static io.countersign.engine.LoopHarness.calls;
import static io.countersign.engine.LoopHarness.script;
import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.engine.call.ToolInvocationHistory;
import io.countersign.engine.call.ToolInvocationObservation;
import io.countersign.engine.chat.ChatMessage;
import io.countersign.engine.chat.ChatRequest;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.state.PausedStateCodec;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.run.ToolLoop;
import org.junit.jupiter.api.Test;

/**
 * What a model sends is kept at a bounded size: a tool name it invents that is not a tool name is recorded as a
 * marker with its length in events and the history (which stays whole when read back), and arguments refused for
 * their size leave the transcript, so no later request carries them.
 */
class BoundedSizesTest {
    private final TestTools.Recording read = TestTools.read("fs_read");
    private final LoopHarness harness = new LoopHarness(read);

    @Test
    void inventedToolNameIsRecordedAsAMarkerWithItsLength() {
        String invented = "X".repeat(100_000);
        RunOutcome outcome = harness.loop(script(calls(call("c1", invented, "{}")), answer("done")))
                .runLoop(harness.request("Go"));

        assertThat(harness.events(EventType.TOOL_DENIED)).extracting(GovernanceEvent::toolName)
                .containsOnly("invalid:len=100000");
        assertThat(outcome.history().observations()).extracting(ToolInvocationObservation::toolName)
                .containsExactly("invalid:len=100000");
        ToolInvocationHistory reloaded = PausedStateCodec.historyFromTree(
                PausedStateCodec.historyToTree(outcome.history()));
        assertThat(reloaded.complete()).isTrue();
        assertThat(reloaded.observations()).isEqualTo(outcome.history().observations());
    }

    @Test
    void oversizeArgumentsAreRefusedAndReplacedByAPlaceholder() {
        String huge = "{\"path\": \"" + "a".repeat(ToolLoop.MAX_ARGUMENT_BYTES) + "\"}";
        RunOutcome outcome = harness.loop(script(calls(call("c1", "fs_read", huge)), calls(call("c2", "fs_read",
                "{\"path\": \"ok.md\"}")), answer("done"))).runLoop(harness.request("Go"));

        assertThat(LoopHarness.resultOf(outcome, "c1")).contains("more than the 100000 allowed. Nothing was executed.");
        ToolCall kept = outcome.transcript().stream().flatMap(message -> message.toolCalls().stream())
                .filter(call -> call.id().equals("c1")).findFirst().orElseThrow();
        assertThat(kept.arguments().path("refused").asText())
                .isEqualTo("arguments of 100011 bytes, more than the 100000 allowed; refused and not kept");
        assertThat(outcome.transcript().stream().mapToInt(message -> message.toString().length()).sum())
                .isLessThan(10_000);
        ChatRequest last = harness.requests.get(harness.requests.size() - 1);
        assertThat(last.messages().stream().map(ChatMessage::toString)).noneMatch(text -> text.contains("aaaa"));
    }
}
