package io.countersign.engine;

import static io.countersign.testing.OtlpReceiver.named;
import static io.countersign.testing.OtlpReceiver.spanId;
import static io.countersign.testing.OtlpReceiver.text;
import static io.countersign.testing.OtlpReceiver.traceId;
import static org.assertj.core.api.Assertions.assertThat;

import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.call.ToolExecutionContext;
import io.countersign.engine.chat.AssistantTurn;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.chat.TokenUsage;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.port.ScriptedChatModel;
import io.countersign.engine.run.RunRequest;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.run.ToolLoop;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.engine.tool.WithdrawableCaller;
import io.countersign.telemetry.Telemetry;
import io.countersign.testing.OtlpReceiver;
import io.countersign.tools.NetworkntSchemaValidator;
import io.opentelemetry.proto.trace.v1.Span;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A call whose caller sent a W3C {@code traceparent} (a gateway's host) executes in the caller's trace. */
class HostTraceInTheLoopTest {
    private static final String HOST_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String HOST_SPAN = "00f067aa0ba902b7";

    @Test
    void aCallWithTheHostsTraceparentContinuesTheHostsTraceLinkedToTheRun() {
        try (OtlpReceiver collector = new OtlpReceiver()) {
            Telemetry telemetry = Telemetry.fromEnvironment(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT",
                    collector.endpoint()));
            ToolRegistry registry = ToolRegistry.of(TestTools.read("fs_read"));
            ScriptedChatModel model = ScriptedChatModel.of(List.of(
                    new AssistantTurn("", List.of(new ToolCall("c1", "fs_read", TestTools.args("{}"))),
                            new TokenUsage(10, 2)),
                    new AssistantTurn("done", List.of(), new TokenUsage(12, 1))));
            WithdrawableCaller host = new WithdrawableCaller("00-" + HOST_TRACE + "-" + HOST_SPAN + "-01");
            ToolLoop loop = ToolLoop.builder(registry, model).schemas(new NetworkntSchemaValidator())
                    .callers(call -> host).telemetry(telemetry.runs()).build();
            AgentConfiguration agent = AgentConfiguration.of("hosted", ModelConfiguration.scripted("hosted"),
                    List.of("files"));

            assertThat(loop.runLoop(RunRequest.of(agent, ToolExecutionContext.of(Actor.of("ann", Role.OPERATOR),
                    "run-1", Locale.ENGLISH), "go")).status()).isEqualTo(RunStatus.COMPLETED);
            telemetry.close();

            Span run = named(collector.spans(), "invoke_agent hosted").get(0);
            Span call = named(collector.spans(), "execute_tool fs_read").get(0);
            assertThat(traceId(call)).isEqualTo(HOST_TRACE);
            assertThat(HexFormat.of().formatHex(call.getParentSpanId().toByteArray())).isEqualTo(HOST_SPAN);
            assertThat(call.getLinksList()).singleElement().satisfies(link ->
                    assertThat(HexFormat.of().formatHex(link.getSpanId().toByteArray()))
                            .isEqualTo(spanId(run)));
            assertThat(text(call, "gen_ai.tool.call.id")).isEqualTo("c1");
            assertThat(text(run, "gen_ai.conversation.id")).isEqualTo("run-1");
        }
    }
}
