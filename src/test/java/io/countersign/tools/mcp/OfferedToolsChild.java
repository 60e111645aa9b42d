package io.countersign.tools.mcp;

import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.chat.TrustZone;
import io.countersign.engine.call.ToolExecutionContext;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.run.RunRequest;
import io.countersign.engine.run.ToolLoop;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.model.HttpModelOptions;
import io.countersign.model.OpenAiCompatibleChatModel;
import io.countersign.tools.BuiltinTools;
import io.countersign.tools.NetworkntSchemaValidator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import okhttp3.OkHttpClient;

/**
 * One process of {@link ToolOrderAcrossProcessesTest}: registers the built-in tools, connects the reference
 * servers one after the other in the order given, and runs one round against the model at the given endpoint.
 * Arguments: the model's endpoint, the filesystem server's folder, then the servers to connect ({@code fs},
 * {@code every}) in connection order.
 */
public final class OfferedToolsChild {
    static final List<String> GROUPS = List.of("files", "web", "interaction", "fs", "every");

    private OfferedToolsChild() {
    }

    public static void main(String[] args) {
        OkHttpClient http = new OkHttpClient();
        ToolRegistry registry = ToolRegistry.of(BuiltinTools.create(() -> http, List::of).toArray(Tool[]::new));
        List<McpToolSource> sources = new ArrayList<>();
        try {
            for (int i = 2; i < args.length; i++) {
                McpToolSource source = McpToolSource.builder(server(args[i], args[1]), registry).build();
                source.open();
                sources.add(source);
            }
            ModelConfiguration model = new ModelConfiguration("local", "ollama", "llama3.2", args[0], TrustZone.LOCAL,
                    null, null, null, null);
            ToolLoop loop = ToolLoop.builder(registry, new OpenAiCompatibleChatModel(model, http,
                    new HttpModelOptions(Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(10), 0,
                            Duration.ofMillis(1)))).schemas(new NetworkntSchemaValidator()).build();
            loop.runLoop(RunRequest.of(AgentConfiguration.of("helper", model, GROUPS),
                    ToolExecutionContext.of(Actor.of("maria", Role.OPERATOR), "run-1", Locale.ENGLISH),
                    "Which tools do you have?"));
        } finally {
            sources.forEach(McpToolSource::close);
            http.dispatcher().executorService().shutdown();
        }
    }

    private static McpServerRecord server(String name, String folder) {
        return switch (name) {
            case "fs" -> McpServerRecord.stdio(name, McpPeers.node(),
                    List.of(McpPeers.script(McpPeers.FILESYSTEM, "dist/index.js"), folder));
            case "every" -> McpServerRecord.stdio(name, McpPeers.node(),
                    List.of(McpPeers.script(McpPeers.EVERYTHING, "dist/index.js"), "stdio"));
            default -> throw new IllegalArgumentException("unknown server " + name);
        };
    }
}
