package io.countersign.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.call.ToolExecutionContext;
import io.countersign.engine.chat.AssistantTurn;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.chat.TokenUsage;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.invocation.InvocationRules;
import io.countersign.engine.port.ScriptedChatModel;
import io.countersign.engine.state.RunOutcome;
import io.countersign.engine.run.RunRequest;
import io.countersign.engine.run.ToolLoop;
import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.ToolCallRequest;
import io.countersign.engine.tool.ToolEffect;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.engine.tool.ToolResult;
import io.countersign.telemetry.Telemetry;
import io.countersign.tools.NetworkntSchemaValidator;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The loop's own cost: a run of two rounds (one read call, then the answer) with 50 registered tools, the
 * built-in invocation rules, and a scripted model whose own time is negligible. {@code telemetry} runs it with
 * tracing off, or exporting to a collector that answers, that is down, or that answers 503.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ToolLoopBenchmark {
    private static final ObjectMapper JSON = new ObjectMapper();
    @Param({"off", "collector_up", "collector_down", "collector_503"})
    public String telemetry;
    private ToolLoop loop;
    private RunRequest request;
    private HttpServer collector;
    private Telemetry exporting = Telemetry.OFF;

    @Setup
    public void setUp() throws IOException {
        if (!telemetry.equals("off")) {
            int port;
            if (telemetry.equals("collector_down")) {
                try (ServerSocket nobody = new ServerSocket(0)) {
                    port = nobody.getLocalPort();
                }
            } else {
                int status = telemetry.equals("collector_up") ? 200 : 503;
                collector = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
                collector.createContext("/", exchange -> {
                    exchange.getRequestBody().readAllBytes();
                    exchange.sendResponseHeaders(status, -1);
                    exchange.close();
                });
                collector.start();
                port = collector.getAddress().getPort();
            }
            exporting = Telemetry.fromEnvironment(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:" + port));
        }
        ToolRegistry registry = new ToolRegistry();
        for (int i = 0; i < 50; i++) {
            registry.register(new BenchTool("tool_" + i));
        }
        ObjectNode arguments = JSON.createObjectNode().put("path", "notes.md");
        ScriptedChatModel model = ScriptedChatModel.of(List.of(
                new AssistantTurn("", List.of(new ToolCall("c1", "tool_7", arguments)), new TokenUsage(100, 10)),
                new AssistantTurn("done", List.of(), new TokenUsage(120, 5))));
        InvocationRules rules = InvocationRules.discover(List.of(), List.of());
        loop = ToolLoop.builder(registry, model)
                .schemas(new NetworkntSchemaValidator())
                .invocationPolicies(rules.invocationPolicy(), rules.preApprovalPolicy())
                .telemetry(exporting.runs())
                .build();
        AgentConfiguration agent = AgentConfiguration.of("bench", ModelConfiguration.scripted("bench"),
                List.of("bench"));
        request = RunRequest.of(agent, ToolExecutionContext.of(Actor.of("bench", Role.OPERATOR), "run-bench",
                Locale.ENGLISH), "go");
    }

    @TearDown
    public void tearDown() {
        exporting.close();
        if (collector != null) {
            collector.stop(0);
        }
    }

    @Benchmark
    public RunOutcome twoRoundsWithOneReadCall() {
        return loop.runLoop(request);
    }

    private static final class BenchTool implements Tool {
        private static final ObjectNode SCHEMA = JSON.createObjectNode().put("type", "object");
        private final String name;

        static {
            SCHEMA.putObject("properties").putObject("path").put("type", "string");
        }

        BenchTool(String name) {
            this.name = name;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public String description() {
            return "a benchmark tool";
        }

        @Override
        public ObjectNode argumentSchema() {
            return SCHEMA;
        }

        @Override
        public ToolEffect effect() {
            return ToolEffect.READ;
        }

        @Override
        public DataClass dataClass() {
            return DataClass.PUBLIC_CONTENT;
        }

        @Override
        public String group() {
            return "bench";
        }

        @Override
        public ToolResult execute(ToolCallRequest call) {
            return ToolResult.ok("ok");
        }
    }
}
