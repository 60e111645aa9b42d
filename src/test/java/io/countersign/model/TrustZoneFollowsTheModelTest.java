package io.countersign.model;

import static io.countersign.model.HttpLoopHarness.next;
import static io.countersign.model.HttpLoopHarness.nextBody;
import static io.countersign.model.HttpLoopHarness.offeredTools;
import static io.countersign.model.WireAnswer.OLLAMA;
import static io.countersign.model.WireAnswer.OPENAI;
import static io.countersign.model.WireAnswer.call;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.countersign.engine.TestDecisions;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.call.ToolExecutionContext;
import io.countersign.engine.chat.ChatMessage;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.chat.TrustZone;
import io.countersign.engine.event.EventType;
import io.countersign.engine.event.GovernanceEvent;
import io.countersign.engine.intent.ToolCallPolicies;
import io.countersign.engine.run.RunRequest;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.PausedStateCodec;
import io.countersign.engine.state.RunCounters;
import io.countersign.engine.state.RunOptions;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.run.ToolLoop;
import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.ToolEffect;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Trust zones follow the model (SPEC sections 4 and 8): an agent on a local model with a source-code tool, and a
 * policy declared in JSON that sends rounds asking for a summary to a model in the external global zone, whose
 * ceiling is editor content. Each model is its own server, answering in its provider's wire format.
 */
class TrustZoneFollowsTheModelTest {
    private static final String SUMMARY = "Write a summary of the changes in the release notes.";
    private static final String SOURCE_ERROR =
            "Error: tool \"code_read\" is not available in this run (reason: trustZone). Nothing was executed.";

    private final StubTool codeRead = new StubTool("code_read", ToolEffect.READ, DataClass.SOURCE_CODE, "code",
            "path");
    private final StubTool docRead = new StubTool("doc_read", ToolEffect.READ, DataClass.EDITOR_CONTENT, "code",
            "path");
    private final StubTool docWrite = new StubTool("doc_write", ToolEffect.WRITE, DataClass.EDITOR_CONTENT, "code",
            "path", "content");
    private final HttpLoopHarness harness = new HttpLoopHarness(codeRead, docRead, docWrite);
    private MockWebServer localServer;
    private MockWebServer cloudServer;
    private AgentConfiguration agent;
    private ToolLoop loop;

    @BeforeEach
    void setUp() throws IOException {
        localServer = Fixtures.startServer();
        cloudServer = Fixtures.startServer();
        ModelConfiguration local = new ModelConfiguration("local", "ollama", "qwen2.5-coder:7b",
                localServer.url("/v1").toString(), TrustZone.LOCAL, null, null, null, null);
        ModelConfiguration cloud = new ModelConfiguration("cloud", "openai", "gpt-4o-mini",
                cloudServer.url("/v1").toString(), TrustZone.EXTERNAL_GLOBAL, null, null, null, null);
        agent = AgentConfiguration.of("reviewer", local, List.of("code"))
                .withToolCallPolicies(ToolCallPolicies.parse(new ObjectMapper().readTree(
                        "[{\"name\": \"summaries_in_the_cloud\", \"match\": {\"words\": [\"summary\"]},"
                                + " \"model\": \"cloud\"}]"),
                        Map.of("cloud", cloud)::get));
        loop = harness.builder().build();
    }

    @AfterEach
    void stopServers() {
        localServer.close();
        cloudServer.close();
    }

    private RunOutcome askForASummary() {
        return loop.runLoop(harness.request(agent, SUMMARY));
    }

    @Test
    void aSwitchedRoundIsNotOfferedTheSourceCodeTool() {
        cloudServer.enqueue(OPENAI.text("Three fixes and one feature."));

        askForASummary();

        assertThat(offeredTools(nextBody(cloudServer))).containsExactly("doc_read", "doc_write");
    }

    @Test
    void aSwitchedRoundGoesToTheEndpointOfTheChosenModel() {
        cloudServer.enqueue(OPENAI.text("Three fixes and one feature."));

        RunOutcome outcome = askForASummary();

        assertThat(outcome.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(next(cloudServer).getUrl().encodedPath()).isEqualTo("/v1/chat/completions");
        assertThat(localServer.getRequestCount()).isZero();
    }

    @Test
    void theSwitchedRoundNamesTheChosenModelOnTheWire() {
        cloudServer.enqueue(OPENAI.text("Three fixes and one feature."));

        askForASummary();

        assertThat(nextBody(cloudServer).path("model").asText()).isEqualTo("gpt-4o-mini");
    }

    @Test
    void theToolKeptOutIsRecordedAsDeniedForTheTrustZoneOfTheChosenModel() {
        cloudServer.enqueue(OPENAI.text("Three fixes and one feature."));

        askForASummary();

        assertThat(harness.events).extracting(GovernanceEvent::type, GovernanceEvent::reasonCode,
                GovernanceEvent::toolName, GovernanceEvent::model)
                .containsExactly(tuple(EventType.TOOL_DENIED, "trustZone", "code_read", "cloud"));
    }

    @Test
    void aRoundWithoutTheMatchOffersTheSourceCodeToolAgainOnTheLocalModel() {
        cloudServer.enqueue(OPENAI.text("Three fixes and one feature."));
        localServer.enqueue(OLLAMA.text("The parser reads tokens until a newline."));
        RunOutcome summary = askForASummary();
        List<ChatMessage> followUp = new ArrayList<>(summary.transcript());
        followUp.add(ChatMessage.user("Now explain how the parser in src/parser.c works."));

        loop.runLoop(new RunRequest(agent, ToolExecutionContext.of(harness.maria, "run-2", Locale.ENGLISH),
                followUp, true, RunCounters.ZERO, RunOptions.DEFAULTS));

        assertThat(offeredTools(nextBody(localServer))).containsExactly("code_read", "doc_read", "doc_write");
        assertThat(harness.events(EventType.TOOL_DENIED)).extracting(GovernanceEvent::runId)
                .as("the local round denies nothing").containsExactly("run-1");
    }

    @Test
    void aSourceCodeCallTheChosenModelEmitsAnywayIsRefusedForTheTrustZone() {
        cloudServer.enqueue(OPENAI.toolCalls(call("call_src", "code_read", "{\"path\":\"src/parser.c\"}")));
        cloudServer.enqueue(OPENAI.text("I cannot read the source."));

        RunOutcome outcome = askForASummary();

        assertThat(codeRead.executed).isEmpty();
        assertThat(outcome.transcript()).filteredOn(message -> "call_src".equals(message.toolCallId()))
                .extracting(ChatMessage::content).containsExactly(SOURCE_ERROR);
    }

    @Test
    void aResumedTurnKeepsTheZoneOfTheModelThatEmittedIt() {
        cloudServer.enqueue(OPENAI.toolCalls(call("call_src", "code_read", "{\"path\":\"src/parser.c\"}"),
                call("call_doc", "doc_write", "{\"path\":\"CHANGES.md\",\"content\":\"Three fixes.\"}")));
        cloudServer.enqueue(OPENAI.text("CHANGES.md is written."));
        PausedState paused = ((RunOutcome.WaitingForApproval) askForASummary()).state();
        assertThat(paused.model().name()).isEqualTo("cloud");
        PausedState restored = PausedStateCodec.fromJson(PausedStateCodec.toJson(paused));

        RunOutcome outcome = harness.builder().build().resumeApproval(restored, agent,
                TestDecisions.approveAll(restored, harness.jonas));

        assertThat(docWrite.executed).hasSize(1);
        assertThat(codeRead.executed).isEmpty();
        assertThat(outcome.transcript()).filteredOn(message -> "call_src".equals(message.toolCallId()))
                .extracting(ChatMessage::content).containsExactly(SOURCE_ERROR);
        assertThat(localServer.getRequestCount()).isZero();
    }
}
