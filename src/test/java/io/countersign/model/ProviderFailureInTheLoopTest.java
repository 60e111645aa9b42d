package io.countersign.model;

import static io.countersign.model.WireAnswer.OPENAI;
import static io.countersign.model.WireAnswer.call;
import static io.countersign.model.WireAnswer.serverError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import com.fasterxml.jackson.databind.JsonNode;
import io.countersign.engine.TestDecisions;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.call.ToolInvocationObservation;
import io.countersign.engine.chat.ChatMessage;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.chat.TrustZone;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.RunCounters;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.run.ToolLoop;
import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.ToolEffect;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A provider that fails in the middle of a run (issue 4, part 2): after a successful round the server answers
 * 500 until the client's retries, a millisecond apart, are used up. The run ends as failed with
 * {@code provider_failed} and keeps the transcript whole; an error that clears within the retries does not end it.
 */
class ProviderFailureInTheLoopTest {
    private static final int ATTEMPTS = HttpLoopHarness.FAST_RETRIES.maxRetries() + 1;

    private final StubTool read = new StubTool("notes_read", ToolEffect.READ, DataClass.EDITOR_CONTENT, "notes",
            "path");
    private final StubTool write = new StubTool("notes_write", ToolEffect.WRITE, DataClass.EDITOR_CONTENT, "notes",
            "path", "content");
    private final HttpLoopHarness harness = new HttpLoopHarness(read, write);
    private MockWebServer server;
    private AgentConfiguration agent;
    private ToolLoop loop;

    @BeforeEach
    void setUp() throws IOException {
        server = Fixtures.startServer();
        agent = AgentConfiguration.of("scribe", new ModelConfiguration("team-llm", "vllm", "qwen2.5-32b-instruct",
                server.url("/v1").toString(), TrustZone.PRIVATE_HOSTED, null, null, null, null), List.of("notes"));
        loop = harness.builder().build();
    }

    @AfterEach
    void stopServer() {
        server.close();
    }

    private RunOutcome readThenFail() {
        server.enqueue(OPENAI.toolCalls(call("call_mon", "notes_read", "{\"path\":\"meetings/monday.md\"}")));
        failEveryAttempt();
        return loop.runLoop(harness.request(agent, "What was decided on Monday?"));
    }

    private void failEveryAttempt() {
        for (int i = 0; i < ATTEMPTS; i++) {
            server.enqueue(serverError(500));
        }
    }

    /** The roles, contents and answered ids of the messages the request of the given number carried. */
    private List<List<String>> messagesOfRequest(int number) {
        JsonNode body = null;
        for (int i = 0; i < number; i++) {
            body = HttpLoopHarness.nextBody(server);
        }
        List<List<String>> messages = new ArrayList<>();
        body.path("messages").forEach(message -> messages.add(List.of(message.path("role").asText(),
                message.path("content").asText(), message.path("tool_call_id").asText())));
        return messages;
    }

    private static List<List<String>> asSent(List<ChatMessage> transcript) {
        return transcript.stream().map(message -> List.of(message.role().name().toLowerCase(Locale.ROOT), message.content(),
                message.toolCallId() == null ? "" : message.toolCallId())).toList();
    }

    @Test
    void serverErrorsPastTheLastRetryFailTheRunAsProviderFailed() {
        RunOutcome outcome = readThenFail();

        assertThat(outcome).isInstanceOfSatisfying(RunOutcome.Failed.class, failed -> {
            assertThat(failed.reasonCode()).isEqualTo("provider_failed");
            assertThat(failed.message()).contains("model \"team-llm\"").contains("failed " + ATTEMPTS + " times")
                    .endsWith("HTTP 500").doesNotContain("The server had an error");
        });
    }

    @Test
    void theFailedRoundIsSentOnceAndRetriedUntilTheRetriesAreUsedUp() {
        readThenFail();

        assertThat(server.getRequestCount()).isEqualTo(1 + ATTEMPTS);
    }

    @Test
    void theFailedRunKeepsTheTranscriptItLastSent() {
        RunOutcome outcome = readThenFail();

        assertThat(asSent(outcome.transcript())).isEqualTo(messagesOfRequest(1 + ATTEMPTS));
    }

    @Test
    void theFailedRunLeavesNothingHalfWritten() {
        RunOutcome outcome = readThenFail();

        assertThat(outcome.transcript()).extracting(ChatMessage::role).containsExactly(ChatMessage.Role.USER,
                ChatMessage.Role.ASSISTANT, ChatMessage.Role.TOOL);
        assertThat(outcome.transcript().get(1).toolCalls()).extracting(ToolCall::id)
                .containsExactly(outcome.transcript().get(2).toolCallId());
        assertThat(outcome.history().observations()).extracting(ToolInvocationObservation::toolName,
                ToolInvocationObservation::outcome).containsExactly(tuple("notes_read",
                ToolInvocationObservation.Outcome.OK));
        assertThat(outcome.counters().iterations()).as("the failed round is not counted").isEqualTo(1);
    }

    @Test
    void aFailureAfterAnApprovalResumeKeepsTheApprovedResults() {
        server.enqueue(OPENAI.toolCalls(call("call_sum", "notes_write",
                "{\"path\":\"summary.md\",\"content\":\"Budget approved.\"}")));
        failEveryAttempt();
        PausedState paused = ((RunOutcome.WaitingForApproval) loop.runLoop(
                harness.request(agent, "Write the summary."))).state();

        RunOutcome outcome = loop.resumeApproval(paused, agent, TestDecisions.approveAll(paused, harness.jonas));

        assertThat(outcome.status()).isEqualTo(RunStatus.FAILED);
        assertThat(write.executed).hasSize(1);
        assertThat(asSent(outcome.transcript())).isEqualTo(messagesOfRequest(1 + ATTEMPTS));
        assertThat(outcome.counters()).isEqualTo(new RunCounters(1, paused.counters().usage()));
    }

    @Test
    void aServerErrorThatClearsWithinTheRetriesDoesNotFailTheRun() {
        server.enqueue(serverError(503));
        server.enqueue(OPENAI.text("Nothing was decided on Monday."));

        RunOutcome outcome = loop.runLoop(harness.request(agent, "What was decided on Monday?"));

        assertThat(outcome).isInstanceOfSatisfying(RunOutcome.Completed.class,
                done -> assertThat(done.answer()).isEqualTo("Nothing was decided on Monday."));
        assertThat(server.getRequestCount()).isEqualTo(2);
    }
}
