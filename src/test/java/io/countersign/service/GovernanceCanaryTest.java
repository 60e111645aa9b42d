package io.countersign.service;

import static org.assertj.core.api.Assertions.assertThat;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.invocation.InvocationRules;
import io.countersign.engine.invocation.PreApprovalInvocationRule;
import io.countersign.engine.invocation.ToolInvocationContext;
import io.countersign.engine.invocation.ToolInvocationDecision;
import io.countersign.engine.invocation.ToolInvocationRule;
import io.countersign.engine.port.AssistantTurn;
import io.countersign.engine.port.TokenUsage;
import io.countersign.engine.port.ToolCall;
import io.countersign.engine.run.ApprovalDecision;
import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.ToolCallRequest;
import io.countersign.engine.tool.ToolEffect;
import io.countersign.engine.tool.ToolPreview;
import io.countersign.engine.tool.ToolResult;
import io.countersign.store.StoreLocation;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A marker rides in every payload of many runs through the service and the store: prompts, arguments, previews,
 * results, rule explanations, rule and tool exception texts, denial reasons, typed input and the model's words.
 * Runs pause, are approved, denied and given input; rules refuse before the card and at execution. The marker
 * reaches the transcripts, and no row of {@code governance_events}.
 */
class GovernanceCanaryTest {
    private static final String MARKER = "QZX-MARKER-7731";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Actor OLGA = Actor.of("olga", Role.OPERATOR);
    private static final Actor JONAS = Actor.of("jonas", Role.OPERATOR);
    private static final String WRITER = "canary-writer";
    private static final int RUNS = 8;

    @TempDir
    Path folder;

    @Test
    void markersPassThroughRunsAndReachNoGovernanceEvent() throws Exception {
        List<String> timelines = new ArrayList<>();
        try (ServiceRig rig = ServiceRig.open(new StoreLocation.SqliteFile(folder.resolve("store.db")),
                List.of(new Write(), new Read(), new NoteFormTool()),
                Map.of(WRITER, writerScript(), NoteFormTool.AGENT, NoteFormTool.script()),
                InvocationRules.of(List.of(new Guard(), new Limit()), List.of()))) {
            for (int i = 0; i < RUNS; i++) {
                String written = rig.service.start(OLGA, WRITER, "Tidy the notes " + marker("prompt"), false)
                        .runId();
                RunCard card = rig.service.card(JONAS, written).orElseThrow();
                assertThat(card.refused()).singleElement()
                        .satisfies(refused -> assertThat(refused.explanation()).contains(MARKER));
                ApprovalDecision.CallVerdict verdict = i % 2 == 0 ? ApprovalDecision.CallVerdict.approve(0)
                        : ApprovalDecision.CallVerdict.deny(0, "no, " + marker("reason"));
                assertThat(rig.service.decide(JONAS, written, card.digest(), List.of(verdict)))
                        .isInstanceOf(DecisionResult.Done.class);

                String noted = rig.service.start(OLGA, NoteFormTool.AGENT, "Take a note " + marker("prompt"), false)
                        .runId();
                RunCard form = rig.service.card(JONAS, noted).orElseThrow();
                ObjectNode values = JSON.createObjectNode().put("summary", marker("input"));
                assertThat(rig.service.submitInput(JONAS, noted, form.digest(), values))
                        .isInstanceOf(DecisionResult.Done.class);

                for (String runId : List.of(written, noted)) {
                    rig.service.timeline(OLGA, runId).entries().forEach(entry -> timelines.add(entry.body()));
                }
            }
        }

        assertThat(String.join("\n", timelines)).contains(marker("argument"), marker("result"),
                marker("explanation"), marker("reason"), marker("input"), marker("model"));
        List<String> rows = governanceEventRows();
        assertThat(eventTypes(rows)).contains("approval_decided", "input_submitted", "invocation_denied",
                "tool_denied");
        assertThat(rows).noneMatch(row -> row.toLowerCase(Locale.ROOT).contains(MARKER.toLowerCase(Locale.ROOT)));
    }

    /** Every column of every event row, as text. */
    private List<String> governanceEventRows() throws Exception {
        List<String> rows = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + folder.resolve("store.db"));
             Statement statement = connection.createStatement();
             ResultSet events = statement.executeQuery("SELECT * FROM governance_events")) {
            int columns = events.getMetaData().getColumnCount();
            while (events.next()) {
                StringBuilder row = new StringBuilder();
                for (int column = 1; column <= columns; column++) {
                    row.append(events.getString(column)).append(" | ");
                }
                rows.add(row.toString());
            }
        }
        return rows;
    }

    private static Set<String> eventTypes(List<String> rows) {
        Set<String> types = new TreeSet<>();
        rows.forEach(row -> types.add(row.split(" \\| ")[2]));
        return types;
    }

    private static String marker(String role) {
        return MARKER + "-" + role;
    }

    /**
     * A write that waits for approval beside one the guard refuses before the card; then reads the limit rule
     * allows, refuses with an explanation, and fails on; a read that throws; a tool nobody offered; an answer.
     */
    private static List<AssistantTurn> writerScript() {
        return List.of(
                turn("Writing " + marker("model"),
                        call("w1", "canary_write", "path", "notes.md", "content", marker("argument")),
                        call("w2", "canary_write", "path", "forbidden.md", "content", marker("argument"))),
                turn("Reading " + marker("model"),
                        call("r1", "canary_read", "query", "find " + marker("argument")),
                        call("r2", "canary_read", "query", "limit " + marker("argument")),
                        call("r3", "canary_read", "query", "explode " + marker("argument")),
                        call("r4", "canary_read", "query", "crash " + marker("argument")),
                        call("r5", "canary_shell", "command", "rm " + marker("argument"))),
                turn("Done, " + marker("model")));
    }

    private static AssistantTurn turn(String content, ToolCall... calls) {
        return new AssistantTurn(content, List.of(calls), new TokenUsage(30, 10));
    }

    private static ToolCall call(String id, String name, String... namesAndValues) {
        ObjectNode arguments = JSON.createObjectNode();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            arguments.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        return new ToolCall(id, name, arguments);
    }

    private static ObjectNode schema(String... properties) {
        ObjectNode schema = JSON.createObjectNode().put("type", "object");
        ObjectNode declared = schema.putObject("properties");
        for (String property : properties) {
            declared.putObject(property).put("type", "string");
        }
        return schema;
    }

    /** Refuses, before the card and at execution, any call on a forbidden path, explaining why. */
    private static final class Guard implements PreApprovalInvocationRule {
        @Override
        public String identifier() {
            return "canary.guard";
        }

        @Override
        public ToolInvocationDecision decide(ToolInvocationContext context) {
            return context.arguments().path("path").asText().startsWith("forbidden")
                    ? ToolInvocationDecision.deny("forbidden_path", "Stay out of it, " + marker("explanation"))
                    : ToolInvocationDecision.allow();
        }
    }

    /** At execution: refuses queries over the limit with an explanation, and fails on explosive ones. */
    private static final class Limit implements ToolInvocationRule {
        @Override
        public String identifier() {
            return "canary.limit";
        }

        @Override
        public ToolInvocationDecision decide(ToolInvocationContext context) {
            String query = context.arguments().path("query").asText();
            if (query.startsWith("explode")) {
                throw new IllegalStateException("the rule broke on " + marker("rule-exception"));
            }
            return query.startsWith("limit")
                    ? ToolInvocationDecision.deny("over_limit", "Too many reads, " + marker("explanation"))
                    : ToolInvocationDecision.allow();
        }
    }

    private abstract static class CanaryTool implements Tool {
        @Override
        public String description() {
            return "a canary tool";
        }

        @Override
        public DataClass dataClass() {
            return DataClass.PUBLIC_CONTENT;
        }

        @Override
        public String group() {
            return "canary";
        }
    }

    private static final class Write extends CanaryTool {
        @Override
        public String name() {
            return "canary_write";
        }

        @Override
        public ObjectNode argumentSchema() {
            return schema("path", "content");
        }

        @Override
        public ToolEffect effect() {
            return ToolEffect.WRITE;
        }

        @Override
        public Optional<ToolPreview> preview(ToolCallRequest request) {
            return Optional.of(new ToolPreview(List.of("+" + request.arguments().path("content").asText())));
        }

        @Override
        public ToolResult execute(ToolCallRequest request) {
            return ToolResult.ok("wrote " + marker("result"));
        }
    }

    private static final class Read extends CanaryTool {
        @Override
        public String name() {
            return "canary_read";
        }

        @Override
        public ObjectNode argumentSchema() {
            return schema("query");
        }

        @Override
        public ToolEffect effect() {
            return ToolEffect.READ;
        }

        @Override
        public ToolResult execute(ToolCallRequest request) {
            if (request.arguments().path("query").asText().startsWith("crash")) {
                throw new IllegalStateException("the read broke on " + marker("tool-exception"));
            }
            return ToolResult.ok("found " + marker("result"));
        }
    }
}
