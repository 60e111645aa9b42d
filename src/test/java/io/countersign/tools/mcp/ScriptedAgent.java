package io.countersign.tools.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.tool.ToolSettings;
import io.countersign.engine.call.ToolExecutionContext;
import io.countersign.engine.call.ToolInvocationObservation;
import io.countersign.engine.chat.AssistantTurn;
import io.countersign.engine.chat.ChatMessage;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.chat.TokenUsage;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.port.ExecutionJournal;
import io.countersign.engine.port.ScriptedChatModel;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.run.RunRequest;
import io.countersign.engine.run.ToolLoop;
import io.countersign.engine.tool.ToolCallRequest;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.tools.NetworkntSchemaValidator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;

/** A scripted agent whose tools are a server's imported tools, run by the real tool loop. */
final class ScriptedAgent {
    static final Actor MARIA = Actor.of("maria", Role.OPERATOR);
    static final Actor JONAS = Actor.of("jonas", Role.OPERATOR);
    private static final ObjectMapper JSON = new ObjectMapper();

    final AgentConfiguration configuration;
    /** Counts down when the loop is about to execute a call. */
    final CountDownLatch executing = new CountDownLatch(1);
    private final ToolRegistry registry;
    private final ToolSettings settings;

    /** An agent that may use the tools of the given servers' group, under the given settings. */
    ScriptedAgent(ToolRegistry registry, String group, ToolSettings settings) {
        this.registry = registry;
        this.settings = settings;
        this.configuration = AgentConfiguration.of("helper", ModelConfiguration.scripted("script"), List.of(group));
    }

    ToolLoop loop(AssistantTurn... turns) {
        return ToolLoop.builder(registry, ScriptedChatModel.of(List.of(turns)))
                .schemas(new NetworkntSchemaValidator())
                .settings(() -> settings)
                .build();
    }

    RunOutcome run(ToolLoop loop, String prompt) {
        return loop.runLoop(RunRequest.of(configuration, ToolExecutionContext.of(MARIA, "run-1", Locale.ENGLISH),
                prompt), new ExecutionJournal() {
                    @Override
                    public void beforeExecute(String runId, String callId, String toolName) {
                        executing.countDown();
                    }

                    @Override
                    public void afterExecute(String runId, String callId,
                                             ToolInvocationObservation.Outcome outcome) {
                    }
                });
    }

    static AssistantTurn calls(ToolCall... calls) {
        return new AssistantTurn("working", List.of(calls), new TokenUsage(10, 5));
    }

    static AssistantTurn answer(String text) {
        return new AssistantTurn(text, List.of(), new TokenUsage(7, 3));
    }

    static ToolCall call(String id, String tool, String arguments) {
        return new ToolCall(id, tool, object(arguments));
    }

    /** A call as a tool receives it, for executing a tool outside a run. */
    ToolCallRequest request(String tool, String arguments) {
        return new ToolCallRequest(tool, object(arguments), configuration.workspace(),
                ToolExecutionContext.of(MARIA, "run-1", Locale.ENGLISH));
    }

    private static ObjectNode object(String json) {
        try {
            return (ObjectNode) JSON.readTree(json);
        } catch (Exception e) {
            throw new IllegalArgumentException("not a JSON object: " + json, e);
        }
    }

    /** What the model read as the result of the call with the given id. */
    static String resultOf(RunOutcome outcome, String callId) {
        return outcome.transcript().stream()
                .filter(message -> message.role() == ChatMessage.Role.TOOL && callId.equals(message.toolCallId()))
                .map(ChatMessage::content)
                .findFirst()
                .orElseThrow(() -> new AssertionError("the transcript has no result for " + callId));
    }
}
