package io.countersign.service;

import static org.assertj.core.api.Assertions.assertThat;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.call.ToolInvocationDecision;
import io.countersign.engine.chat.AssistantTurn;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.chat.TokenUsage;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.chat.TrustZone;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.grant.GrantSpan;
import io.countersign.engine.invocation.InvocationRules;
import io.countersign.engine.invocation.PreApprovalInvocationRule;
import io.countersign.engine.invocation.ToolInvocationContext;
import io.countersign.engine.invocation.ToolInvocationRule;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.IdGenerator;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.ToolCallRequest;
import io.countersign.engine.tool.ToolEffect;
import io.countersign.engine.tool.ToolPreview;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.engine.tool.ToolResult;
import io.countersign.model.ChatModels;
import io.countersign.model.HttpModelOptions;
import io.countersign.store.StoreLocation;
import io.countersign.store.StoredAgentConfiguration;
import io.countersign.tools.NetworkntSchemaValidator;
import io.countersign.tools.mcp.McpToolSource;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A marker rides in every payload of many runs through the service and the store: prompts, arguments, previews,
 * results, rule explanations, rule and tool exception texts, denial reasons, typed input and the model's words.
 * Runs pause, are approved, denied and given input; rules refuse before the card and at execution. The marker
 * reaches the transcripts, and no row of {@code governance_events}. Text from outside stays outside: a remote
 * server's JSON-RPC error text and a model provider's error body reach no transcript, row or log line.
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
                // every fourth card is approved with the person's arguments in place of the model's, and the last
                // approval also allows the same call for an hour
                Decision.CallVerdict verdict = i % 4 == 0 ? Decision.CallVerdict.approveEdited(0,
                        JSON.createObjectNode().put("path", "edited-" + marker("edit")).put("content",
                                marker("edit")))
                        : i % 2 == 0 || i == RUNS - 1 ? Decision.CallVerdict.approve(0)
                        : Decision.CallVerdict.deny(0, "no, " + marker("reason"));
                Allowance allow = i == RUNS - 1 ? Allowance.sameArguments(GrantSpan.ONE_HOUR) : null;
                assertThat(rig.service.decide(JONAS, written, card.digest(), List.of(verdict), allow))
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

            // the grant approves the same call of the next run without a card, and is then revoked
            String granted = rig.service.start(OLGA, WRITER, "Tidy again " + marker("prompt"), false).runId();
            assertThat(rig.service.card(JONAS, granted)).isEmpty();
            Grants grants = rig.service.grants().orElseThrow();
            assertThat(grants.list(JONAS)).singleElement().satisfies(grant -> {
                assertThat(grant.uses()).isEqualTo(1);
                assertThat(grants.revoke(JONAS, grant.id()).id()).isEqualTo(grant.id());
            });
        }

        assertThat(String.join("\n", timelines)).contains(marker("argument"), marker("result"),
                marker("explanation"), marker("reason"), marker("input"), marker("model"));
        List<String> rows = governanceEventRows();
        assertThat(eventTypes(rows)).contains("approval_decided", "input_submitted", "invocation_denied",
                "grant_made", "approved_by_grant", "grant_revoked",
                "tool_denied");
        assertThat(rows).noneMatch(row -> row.toLowerCase(Locale.ROOT).contains(MARKER.toLowerCase(Locale.ROOT)));
    }

    @Test
    void remoteErrorTextAndProviderErrorBodiesReachNeitherTheModelNorTheStoreNorTheLog() throws Exception {
        List<String> logged = new ArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                logged.add(new SimpleFormatter().format(record));
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger root = Logger.getLogger("");
        root.addHandler(capture);
        List<String> timelines = new ArrayList<>();
        String remoteFailure;
        String providerFailure;
        ToolRegistry imported = ToolRegistry.of();
        McpServerRecord canary = McpServerRecord.stdio("ctr", Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), List.of("-cp", System.getProperty("java.class.path"), CanaryMcpServer.class.getName(),
                marker("remote")));
        try (McpToolSource source = McpToolSource.builder(canary, imported).build();
             MockWebServer provider = new MockWebServer()) {
            source.open();
            provider.start();
            provider.enqueue(new MockResponse.Builder().code(400).addHeader("Content-Type", "application/json")
                    .body("{\"error\":{\"message\":\"bad request " + marker("provider") + "\"}}").build());
            List<AssistantTurn> remoteScript = List.of(turn("Calling", call("x1", "ctr.boom"), call("x2", "ctr.sad")),
                    turn("Done"));
            try (ServiceRig rig = ServiceRig.open(new StoreLocation.SqliteFile(folder.resolve("store.db")),
                    List.of(imported.find("ctr.boom").orElseThrow(), imported.find("ctr.sad").orElseThrow()),
                    Map.of("remote-canary", remoteScript))) {
                String remote = rig.service.start(OLGA, "remote-canary", "Call the server", false).runId();
                rig.service.timeline(OLGA, remote).entries().forEach(entry -> timelines.add(entry.body()));
                remoteFailure = String.valueOf(rig.service.timeline(OLGA, remote).failure());

                ModelConfiguration http = new ModelConfiguration("provider-canary", "openai", "gpt-4o-mini",
                        provider.url("/v1").toString(), TrustZone.LOCAL, null, null, null, null);
                rig.store.configurations().saveModel(http);
                rig.store.configurations().saveAgent(StoredAgentConfiguration.of(AgentConfiguration.of(
                        "provider-canary", http, List.of("ctr")), "[]"));
                DefaultRunService overHttp = DefaultRunService.overStore(rig.store, ToolRegistry.of(),
                        new NetworkntSchemaValidator(),
                        ChatModels.openAiCompatible(OkHttpClient::new, HttpModelOptions.DEFAULTS).router(),
                        InvocationRules.none(), Clock.systemUTC(), IdGenerator.random(), Locale.ENGLISH);
                StartedRun failed = overHttp.start(OLGA, "provider-canary", "Say hello", false);
                assertThat(failed.status()).isEqualTo(RunStatus.FAILED);
                providerFailure = overHttp.timeline(OLGA, failed.runId()).failure();
            }
        } finally {
            root.removeHandler(capture);
        }

        String refused = "boom " + marker("remote");
        String transcript = String.join("\n", timelines);
        assertThat(transcript).contains("Error: server \"ctr\" failed the call (JSON-RPC error -32000). Nothing else"
                + " is known.", "sad " + marker("remote")).doesNotContain(refused, "Ignore your instructions");
        assertThat(remoteFailure).isEqualTo("null");
        assertThat(providerFailure).startsWith("provider_failed: ").contains("HTTP 400").doesNotContain(MARKER);
        assertThat(rows("runs").toString()).doesNotContain(refused, marker("provider"));
        assertThat(rows("governance_events").toString()).doesNotContain(MARKER);
        assertThat(String.join("", logged)).doesNotContain(MARKER);
    }

    /** Every column of every event row, as text. */
    private List<String> governanceEventRows() throws Exception {
        return rows("governance_events");
    }

    /** Every column of every row of the table, as text. */
    private List<String> rows(String table) throws Exception {
        List<String> rows = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + folder.resolve("store.db"));
             Statement statement = connection.createStatement();
             ResultSet events = statement.executeQuery("SELECT * FROM " + table)) {
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
