package io.countersign.model;

import static io.countersign.model.HttpLoopHarness.nextBody;
import static io.countersign.model.WireAnswer.OPENAI;
import static io.countersign.model.WireAnswer.call;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.call.InvocationVerdict;
import io.countersign.engine.chat.ChatMessage;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.chat.TrustZone;
import io.countersign.engine.intent.IntentRouting;
import io.countersign.engine.intent.ToolCallPolicy;
import io.countersign.engine.invocation.ToolInvocationContext;
import io.countersign.engine.state.RunOptions;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.run.ToolLoop;
import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.ToolEffect;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A redirect end to end over HTTP (SPEC section 8, POST seam): the model emits {@code run_block} for a question
 * about sales, the document's policy runs {@code fetch_data} instead with arguments of its own, and the model reads
 * the result as the answer to the call it emitted.
 */
class RedirectOverHttpTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String EMITTED_ARGUMENTS = "{\"block\":\"SELECT sum(total) FROM sales\"}";
    private static final ToolCallPolicy SALES_DATA_READ = new ToolCallPolicy("sales_data_read",
            context -> context.lastUserMessage().toLowerCase(Locale.ROOT).contains("sales"),
            Set.of("run_block"), "fetch_data", null,
            (arguments, context) -> JsonNodeFactory.instance.objectNode()
                    .put("table", context.scope().get("brand") + "_sales"),
            context -> context.resolvedToolNames().contains("fetch_data"));

    private final StubTool runBlock = new StubTool("run_block", ToolEffect.READ, DataClass.PUBLIC_CONTENT, "data",
            "block");
    private final StubTool fetchData = new StubTool("fetch_data", ToolEffect.READ, DataClass.PUBLIC_CONTENT, "data",
            "table");
    // Registered, but outside the agent's groups: never offered.
    private final StubTool exportData = new StubTool("export_data", ToolEffect.READ, DataClass.PUBLIC_CONTENT,
            "exports", "table");
    private final HttpLoopHarness harness = new HttpLoopHarness(runBlock, fetchData, exportData);
    private final List<LogRecord> warnings = Collections.synchronizedList(new ArrayList<>());
    // Held here: the logging framework keeps loggers only weakly, and with them the handler.
    private final Logger routingLogger = Logger.getLogger(IntentRouting.class.getName());
    private final Handler warningCatcher = new Handler() {
        @Override
        public void publish(LogRecord entry) {
            if (entry.getLevel() == Level.WARNING) {
                warnings.add(entry);
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    private MockWebServer server;
    private ModelConfiguration model;

    @BeforeEach
    void setUp() throws IOException {
        server = Fixtures.startServer();
        model = new ModelConfiguration("analyst-model", "openai", "gpt-4o-mini", server.url("/v1").toString(),
                TrustZone.EXTERNAL_EU, null, null, null, null);
        routingLogger.addHandler(warningCatcher);
        server.enqueue(OPENAI.toolCalls(call("call_sales", "run_block", EMITTED_ARGUMENTS)));
        server.enqueue(OPENAI.text("Sales were 1.2 million."));
    }

    @AfterEach
    void tearDown() {
        routingLogger.removeHandler(warningCatcher);
        server.close();
    }

    private RunOutcome askAboutSales(ToolCallPolicy policy) {
        return askAboutSales(policy, harness.builder().build());
    }

    private RunOutcome askAboutSales(ToolCallPolicy policy, ToolLoop loop) {
        AgentConfiguration agent = AgentConfiguration.of("analyst", model, List.of("data"))
                .withToolCallPolicies(List.of(policy));
        return loop.runLoop(harness.request(agent, "What were the total sales last quarter?")
                .withOptions(new RunOptions(false, null, Map.of("brand", "acme"))));
    }

    private static ObjectNode json(String text) {
        try {
            return (ObjectNode) JSON.readTree(text);
        } catch (IOException e) {
            throw new IllegalArgumentException(text, e);
        }
    }

    @Test
    void theRedirectTargetExecutesWithTheTransformedArguments() {
        askAboutSales(SALES_DATA_READ);

        assertThat(fetchData.executed).containsExactly(json("{\"table\":\"acme_sales\"}"));
        assertThat(runBlock.executed).isEmpty();
    }

    @Test
    void theTranscriptKeepsTheEmittedCallAndAnswersItsId() {
        RunOutcome outcome = askAboutSales(SALES_DATA_READ);

        assertThat(outcome.transcript()).filteredOn(message -> message.role() == ChatMessage.Role.ASSISTANT)
                .flatExtracting(ChatMessage::toolCalls)
                .containsExactly(new ToolCall("call_sales", "run_block", json(EMITTED_ARGUMENTS)));
        assertThat(outcome.transcript()).filteredOn(message -> message.role() == ChatMessage.Role.TOOL)
                .extracting(ChatMessage::toolCallId, ChatMessage::content)
                .containsExactly(tuple("call_sales",
                        "fetch_data ran with {\"table\":\"acme_sales\"}"));
    }

    @Test
    void theModelIsSentItsOwnCallAnsweredByTheRedirectedResult() {
        askAboutSales(SALES_DATA_READ);
        nextBody(server);

        JsonNode messages = nextBody(server).path("messages");
        JsonNode emitted = messages.get(messages.size() - 2).path("tool_calls").get(0);
        JsonNode answer = messages.get(messages.size() - 1);
        assertThat(emitted.path("id").asText()).isEqualTo("call_sales");
        assertThat(emitted.path("function").path("name").asText()).isEqualTo("run_block");
        assertThat(emitted.path("function").path("arguments").asText()).isEqualTo(EMITTED_ARGUMENTS);
        assertThat(answer.path("tool_call_id").asText()).isEqualTo("call_sales");
        assertThat(answer.path("content").asText()).isEqualTo("fetch_data ran with {\"table\":\"acme_sales\"}");
    }

    @Test
    void theInvocationRulesJudgeTheRedirectedCall() {
        List<ToolInvocationContext> judged = Collections.synchronizedList(new ArrayList<>());
        ToolLoop loop = harness.builder().invocationPolicies(context -> {
            judged.add(context);
            return InvocationVerdict.allowed(null);
        }, context -> InvocationVerdict.allowed(null)).build();

        askAboutSales(SALES_DATA_READ, loop);

        assertThat(judged).extracting(ToolInvocationContext::toolName, ToolInvocationContext::arguments)
                .containsExactly(tuple("fetch_data",
                        json("{\"table\":\"acme_sales\"}")));
    }

    @Test
    void aRedirectToAToolThatIsNotOfferedIsDroppedAndTheEmittedCallRuns() {
        askAboutSales(ToolCallPolicy.redirect("sales_export", context -> true, Set.of("run_block"), "export_data"));

        assertThat(runBlock.executed).containsExactly(json(EMITTED_ARGUMENTS));
        assertThat(exportData.executed).isEmpty();
    }

    @Test
    void aDroppedRedirectIsLoggedAsAWarningNamingThePolicyAndTheTarget() {
        askAboutSales(ToolCallPolicy.redirect("sales_export", context -> true, Set.of("run_block"), "export_data"));

        assertThat(warnings).extracting(LogRecord::getMessage).containsExactly("intent policy \"sales_export\""
                + " redirected \"run_block\" to \"export_data\", which is not offered this round; the rewrite is"
                + " dropped and the emitted call dispatches");
    }
}
