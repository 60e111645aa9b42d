package io.countersign.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.TestDecisions;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.call.ToolExecutionContext;
import io.countersign.engine.chat.AssistantTurn;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.chat.TokenUsage;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.port.ScriptedChatModel;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.run.RunRequest;
import io.countersign.engine.run.ToolLoop;
import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.InputField;
import io.countersign.engine.tool.RequiresInput;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.ToolCallRequest;
import io.countersign.engine.tool.ToolEffect;
import io.countersign.engine.tool.ToolPreview;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.engine.tool.ToolResult;
import io.countersign.tools.NetworkntSchemaValidator;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Real outcomes of a scripted tool loop, for the run store to keep. The writer reads a file, then pauses twice
 * for approval of a write (each with a diff preview), then answers; the asker pauses once for typed input.
 */
final class TestRuns {
    static final Actor MARIA = Actor.of("maria", Role.OPERATOR);
    static final ObjectMapper JSON = new ObjectMapper();

    final AgentConfiguration writer = AgentConfiguration.of("writer", ModelConfiguration.scripted("writes"),
            List.of("files"));
    final AgentConfiguration asker = AgentConfiguration.of("asker", ModelConfiguration.scripted("asks"),
            List.of("forms"));
    private final ToolLoop loop = ToolLoop.builder(ToolRegistry.of(new Read(), new Write(), new Form()),
            ScriptedChatModel.byModel(Map.of(
                    "writes", List.of(
                            turn("Reading the notes first.", new ToolCall("c0", "read", args("path", "NOTES.md"))),
                            turn("Now the new section.", new ToolCall("c1", "write",
                                    args("path", "NOTES.md", "content", "## 2.4"))),
                            turn("And the index.", new ToolCall("c2", "write",
                                    args("path", "INDEX.md", "content", "- 2.4"))),
                            turn("Both files are written.")),
                    "asks", List.of(
                            turn("I need the details.", new ToolCall("f0", "form", args("summary", "a guess"))),
                            turn("Filed."))))).schemas(new NetworkntSchemaValidator()).build();

    /** A writer run at its first pause: the read ran (it is in the history), the first write waits. */
    RunOutcome.WaitingForApproval firstPause(String runId) {
        return (RunOutcome.WaitingForApproval) loop.runLoop(RunRequest.of(writer,
                ToolExecutionContext.of(MARIA, runId, Locale.ENGLISH), "Tidy the notes"));
    }

    /** Approves every waiting call of a writer pause: the second pause, or the completion after it. */
    RunOutcome approve(PausedState state) {
        return loop.resumeApproval(state, writer, TestDecisions.approveAll(state, MARIA));
    }

    /** An asker run waiting for a summary. */
    RunOutcome.WaitingForInput inputPause(String runId) {
        return (RunOutcome.WaitingForInput) loop.runLoop(RunRequest.of(asker,
                ToolExecutionContext.of(MARIA, runId, Locale.ENGLISH), "File the bug"));
    }

    static Decision approval(PausedState state, String decidedBy, Instant at) {
        return Decision.approval(state.runId(), decidedBy, at, state.digest(),
                TestDecisions.approveAll(state, MARIA).verdicts());
    }

    static Decision input(PausedState state, String decidedBy, Instant at) {
        return Decision.input(state.runId(), decidedBy, at, state.digest(), args("summary", "Sync stalls"));
    }

    static ObjectNode args(String... namesAndValues) {
        ObjectNode node = JSON.createObjectNode();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            node.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        return node;
    }

    private static AssistantTurn turn(String content, ToolCall... calls) {
        return new AssistantTurn(content, List.of(calls), new TokenUsage(12, 4));
    }

    private static ObjectNode stringSchema(String... properties) {
        ObjectNode schema = JSON.createObjectNode().put("type", "object");
        ObjectNode props = schema.putObject("properties");
        for (String property : properties) {
            props.putObject(property).put("type", "string");
        }
        return schema;
    }

    private abstract static class TestTool implements Tool {
        @Override
        public String description() {
            return "a test tool";
        }

        @Override
        public DataClass dataClass() {
            return DataClass.PUBLIC_CONTENT;
        }
    }

    private static final class Read extends TestTool {
        @Override
        public String name() {
            return "read";
        }

        @Override
        public ObjectNode argumentSchema() {
            return stringSchema("path");
        }

        @Override
        public ToolEffect effect() {
            return ToolEffect.READ;
        }

        @Override
        public String group() {
            return "files";
        }

        @Override
        public ToolResult execute(ToolCallRequest request) {
            return ToolResult.ok("# Notes of " + request.arguments().path("path").asText());
        }
    }

    private static final class Write extends TestTool {
        @Override
        public String name() {
            return "write";
        }

        @Override
        public ObjectNode argumentSchema() {
            return stringSchema("path", "content");
        }

        @Override
        public ToolEffect effect() {
            return ToolEffect.WRITE;
        }

        @Override
        public String group() {
            return "files";
        }

        @Override
        public Optional<ToolPreview> preview(ToolCallRequest request) {
            return Optional.of(new ToolPreview(List.of("--- " + request.arguments().path("path").asText(),
                    "+" + request.arguments().path("content").asText())));
        }

        @Override
        public ToolResult execute(ToolCallRequest request) {
            return ToolResult.ok("wrote " + request.arguments().path("path").asText());
        }
    }

    private static final class Form extends TestTool implements RequiresInput {
        @Override
        public String name() {
            return "form";
        }

        @Override
        public ObjectNode argumentSchema() {
            return stringSchema("summary");
        }

        @Override
        public ToolEffect effect() {
            return ToolEffect.READ;
        }

        @Override
        public String group() {
            return "forms";
        }

        @Override
        public List<InputField> inputFields() {
            return List.of(InputField.text("summary", "Summary", "One line", true));
        }

        @Override
        public ToolResult execute(ToolCallRequest request) {
            return ToolResult.ok("filed: " + request.arguments().path("summary").asText());
        }
    }
}
