package io.countersign.cli;

import static io.countersign.testing.OtlpReceiver.attribute;
import static io.countersign.testing.OtlpReceiver.named;
import static io.countersign.testing.OtlpReceiver.number;
import static io.countersign.testing.OtlpReceiver.text;
import static io.countersign.testing.OtlpReceiver.traceId;
import static io.countersign.testing.OtlpReceiver.value;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.countersign.testing.OtlpReceiver;
import io.opentelemetry.proto.trace.v1.Span;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OTLP export of a real run, received by a real OTLP/HTTP endpoint that decodes the OpenTelemetry protobuf: the
 * run pauses in one {@code countersign} process ({@code demo}) and is decided and carried out in another
 * ({@code decide}), and the two export one trace.
 */
class TelemetryExportTest {
    @TempDir
    Path folder;
    private OtlpReceiver collector;
    private CommandProcess countersign;

    @BeforeEach
    void startCollector() {
        collector = new OtlpReceiver();
        countersign = new CommandProcess(folder, folder.resolve("countersign.db").toString());
    }

    @AfterEach
    void stopCollector() {
        collector.close();
    }

    private Map<String, String> otel(boolean capture) {
        return Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", collector.endpoint(), "OTEL_SERVICE_NAME", "countersign-test",
                "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", String.valueOf(capture));
    }

    /** The demo's file write paused in one process, approved and carried out in another; its run id. */
    private String pauseThenDecideElsewhere(boolean capture) {
        CommandProcess.Result demo = countersign.start(otel(capture), "demo").await();
        assertThat(demo.exitCode()).as(demo.err()).isZero();
        JsonNode card = null;
        for (JsonNode run : countersign.run("inbox").json()) {
            if (run.path("agent").asText().equals("release-notes-bot")) {
                card = run;
            }
        }
        assertThat(card).as("the release notes card waits").isNotNull();
        String runId = card.path("runId").asText();
        CommandProcess.Result decided = countersign.start(otel(capture), "decide", runId, "--digest",
                card.path("digest").asText(), "--approve-all").await();
        assertThat(decided.exitCode()).as(decided.err()).isZero();
        assertThat(decided.json().path("status").asText()).isEqualTo("completed");
        return runId;
    }

    @Test
    void aRunPausedInOneProcessAndDecidedInAnotherIsOneTraceWithThePersonInIt() throws Exception {
        String runId = pauseThenDecideElsewhere(false);

        List<Span> spans = collector.spans();
        List<Span> run = spans.stream().filter(span -> runId.equals(text(span, "gen_ai.conversation.id"))
                || span.getName().startsWith("chat ") || span.getName().startsWith("execute_tool ")).toList();
        List<Span> agents = named(run, "invoke_agent release-notes-bot");
        assertThat(agents).hasSize(2);
        String trace = traceId(agents.get(0));
        List<Span> ofTrace = spans.stream().filter(span -> traceId(span).equals(trace)).toList();
        assertThat(agents).allSatisfy(span -> assertThat(traceId(span)).isEqualTo(trace));
        Span first = agents.stream().filter(span -> span.getParentSpanId().isEmpty()).findFirst().orElseThrow();
        Span resumed = agents.stream().filter(span -> !span.getParentSpanId().isEmpty()).findFirst().orElseThrow();
        assertThat(resumed.getParentSpanId()).isEqualTo(first.getSpanId());
        assertThat(text(first, "countersign.run.status")).isEqualTo("waiting_for_approval");
        assertThat(text(resumed, "countersign.run.status")).isEqualTo("completed");
        assertThat(text(first, "gen_ai.operation.name")).isEqualTo("invoke_agent");

        List<Span> chats = ofTrace.stream().filter(span -> span.getName().startsWith("chat ")).toList();
        assertThat(chats).hasSize(2);
        assertThat(chats).anySatisfy(chat -> {
            assertThat(number(chat, "gen_ai.usage.input_tokens")).isEqualTo(812);
            assertThat(number(chat, "gen_ai.usage.output_tokens")).isEqualTo(164);
            assertThat(value(chat, "gen_ai.response.finish_reasons").orElseThrow().getArrayValue().getValues(0)
                    .getStringValue()).isEqualTo("tool_calls");
            assertThat(chat.getParentSpanId()).isEqualTo(first.getSpanId());
        });
        assertThat(chats).anySatisfy(chat -> assertThat(chat.getParentSpanId()).isEqualTo(resumed.getSpanId()));

        Span write = named(ofTrace, "execute_tool fs_write").get(0);
        assertThat(write.getParentSpanId()).isEqualTo(resumed.getSpanId());
        assertThat(text(write, "gen_ai.tool.name")).isEqualTo("fs_write");
        assertThat(text(write, "gen_ai.tool.call.id")).isNotBlank();
        assertThat(text(write, "gen_ai.tool.type")).isEqualTo("function");
        assertThat(text(write, "countersign.execution.outcome")).isEqualTo("ok");

        assertThat(first.getEventsList()).anySatisfy(event -> {
            assertThat(event.getName()).isEqualTo("countersign.invocation.refused");
            assertThat(event.getAttributesList()).contains(attribute("countersign.rule.id", "workspace.boundary"),
                    attribute("countersign.reason.code", "outside_workspace"));
        });

        Span wait = named(ofTrace, "countersign.wait_for_person").get(0);
        assertThat(wait.getParentSpanId()).isEqualTo(first.getSpanId());
        assertThat(text(wait, "countersign.decision.outcome")).isEqualTo("approved");
        assertThat(text(wait, "countersign.decision.decided_by")).isNotBlank();
        assertThat(number(wait, "countersign.decision.approvals")).isEqualTo(1);
        long waitedNanos = wait.getEndTimeUnixNano() - wait.getStartTimeUnixNano();
        assertThat(waitedNanos / 1_000_000).as("the wait span lasts the wait the store recorded")
                .isEqualTo(recordedWaitMillis("release-notes-bot"));
        assertThat(number(wait, "countersign.wait.duration_ms")).isEqualTo(recordedWaitMillis("release-notes-bot"));

        assertThat(collector.metricNames()).contains("countersign.cards.waiting", "countersign.decision.duration",
                "countersign.refusals", "countersign.executions");
        assertThat(collector.everything()).as("no argument, result, answer or refusal text without content capture")
                .doesNotContain("faster sync", "old-draft", "now describes 2.4", "outside the workspace");
    }

    @Test
    void contentGoesOutOnlyWhenCaptureIsSwitchedOn() {
        pauseThenDecideElsewhere(true);

        Span write = named(collector.spans(), "execute_tool fs_write").get(0);
        assertThat(text(write, "gen_ai.tool.call.arguments")).contains("faster sync");
        assertThat(text(write, "gen_ai.tool.call.result")).isNotBlank();
    }

    @Test
    void aCollectorAnswering503LosesNoRunData() {
        collector.answer(503);
        String runId = pauseThenDecideElsewhere(false);

        assertThat(collector.exports()).as("the exports were tried").isPositive();
        JsonNode shown = countersign.run("show", runId).json();
        assertThat(shown.path("status").asText()).isEqualTo("completed");
        assertThat(shown.path("history").path("calls").findValuesAsText("tool")).contains("fs_write", "fs_delete");
        assertThat(shown.path("events").findValuesAsText("title")).contains("approval_decided");
    }

    private long recordedWaitMillis(String agent) throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + folder.resolve("countersign.db"));
             ResultSet rows = connection.createStatement().executeQuery(
                     "SELECT latency_sum FROM decision_latency_counts WHERE name = '" + agent + "'")) {
            assertThat(rows.next()).as("the store counted the decision's latency").isTrue();
            return rows.getLong(1);
        }
    }

}
