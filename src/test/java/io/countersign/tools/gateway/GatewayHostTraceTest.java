package io.countersign.tools.gateway;

import static io.countersign.testing.OtlpReceiver.named;
import static io.countersign.testing.OtlpReceiver.spanId;
import static io.countersign.testing.OtlpReceiver.text;
import static io.countersign.testing.OtlpReceiver.traceId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.countersign.engine.port.TelemetrySettings;
import io.countersign.testing.OtlpReceiver;
import io.countersign.tools.mcp.McpPeers;
import io.opentelemetry.proto.trace.v1.Span;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real MCP host that sends its trace context as OpenTelemetry-instrumented hosts do (the TypeScript SDK's client
 * with {@code traceparent} in the {@code _meta} of {@code tools/call}) through {@code countersign gateway}, whose
 * export the stored telemetry settings send to a real OTLP receiver: the gateway's call is a child of the host's
 * span, linked to the gateway run's own trace.
 */
class GatewayHostTraceTest {
    private static final String HOST_TRACE = "0af7651916cd43dd8448eb211c80319c";
    private static final String HOST_SPAN = "b7ad6b7169203331";
    /** The fronted server's tool, as the gateway's registry names what the host calls {@code echo}. */
    private static final String ECHO = "execute_tool everything.echo";

    @TempDir
    Path folder;
    private GatewayTestBed bed;
    private final OtlpReceiver collector = new OtlpReceiver();

    @AfterEach
    void tearDown() {
        if (bed != null) {
            bed.close();
        }
        collector.close();
    }

    @Test
    void theGatewaysCallIsAChildOfTheHostsSpan() throws Exception {
        bed = new GatewayTestBed(folder);
        bed.console().settings().saveTelemetry(bed.console().localUser(), new TelemetrySettings(collector.endpoint(),
                Map.of(), "countersign-gateway", 1.0, false));
        List<String> command = new ArrayList<>(List.of(McpPeers.node(), McpPeers.hostScript("trace-host.mjs"),
                GatewayHost.javaCommand()));
        command.addAll(bed.gatewayArguments());
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.appendTo(folder.resolve("host.log").toFile()));
        builder.environment().put("HOST_TOOL", "echo");
        builder.environment().put("HOST_ARGUMENTS", "{\"message\": \"traced\"}");
        builder.environment().put("HOST_TRACEPARENT", "00-" + HOST_TRACE + "-" + HOST_SPAN + "-01");
        Process host = builder.start();
        String answer = new String(host.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(host.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(answer).contains("Echo: traced");

        // the gateway exports its last spans as it ends with the host's connection
        await().atMost(30, TimeUnit.SECONDS).until(() -> !named(collector.spans(), ECHO).isEmpty()
                && !named(collector.spans(), "invoke_agent desk").isEmpty());
        Span call = named(collector.spans(), ECHO).get(0);
        Span run = named(collector.spans(), "invoke_agent desk").get(0);
        assertThat(traceId(call)).isEqualTo(HOST_TRACE);
        assertThat(HexFormat.of().formatHex(call.getParentSpanId().toByteArray())).isEqualTo(HOST_SPAN);
        assertThat(call.getLinksList()).singleElement().satisfies(link ->
                assertThat(HexFormat.of().formatHex(link.getSpanId().toByteArray())).isEqualTo(spanId(run)));
        assertThat(text(call, "gen_ai.tool.type")).isEqualTo("extension");
        assertThat(text(run, "gen_ai.conversation.id")).isNotBlank();
        assertThat(traceId(run)).isNotEqualTo(HOST_TRACE);
        assertThat(collector.everything()).contains("countersign-gateway").doesNotContain("traced");
    }
}
