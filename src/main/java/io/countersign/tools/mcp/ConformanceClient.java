package io.countersign.tools.mcp;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.invocation.ToolExecutionContext;
import io.countersign.engine.run.AgentConfiguration;
import io.countersign.engine.run.ModelConfiguration;
import io.countersign.engine.tool.ImportReport;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.ToolCallRequest;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.engine.tool.ToolResult;
import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The client that the MCP conformance suite ({@code @modelcontextprotocol/conformance}, client mode) launches:
 * {@code java -cp <class path> io.countersign.tools.mcp.ConformanceClient <server URL>}. It connects over
 * Streamable HTTP through {@link McpToolSource}, as the console does, so the handshake, the tool listing and the
 * calls are the console's own; then it calls each listed tool it has arguments for. The exit status is 0 when
 * every step worked.
 */
public final class ConformanceClient {
    private static final String SERVER = "conformance";
    /** Arguments for the tools the suite's scenarios offer, by their registry names. */
    private static final Map<String, ObjectNode> KNOWN_CALLS = Map.of(SERVER + ".add_numbers",
            JsonNodeFactory.instance.objectNode().put("a", 5).put("b", 3));

    private ConformanceClient() {
    }

    public static void main(String[] args) {
        if (args.length == 0) {
            System.err.println("usage: ConformanceClient <server URL>");
            System.exit(2);
        }
        System.exit(run(URI.create(args[args.length - 1]), System.out, System.err));
    }

    static int run(URI url, PrintStream out, PrintStream err) {
        McpServerRecord record = McpServerRecord.streamableHttp(SERVER, url)
                .withCallTimeout(Duration.ofSeconds(10))
                .withConnectTimeout(Duration.ofSeconds(10));
        ToolRegistry registry = new ToolRegistry();
        try (McpToolSource source = McpToolSource.builder(record, registry).build()) {
            ImportReport report = source.open();
            out.println("connected; tools: " + report.registered());
            AgentConfiguration agent = AgentConfiguration.of(SERVER, ModelConfiguration.scripted(SERVER),
                    List.of(record.group()));
            ToolExecutionContext context = ToolExecutionContext.of(Actor.of(SERVER, Role.OPERATOR), SERVER,
                    Locale.ENGLISH);
            boolean failed = false;
            // every tool in this registry came from the source, and a remote tool reports failures as results
            for (Tool tool : registry.tools()) {
                ObjectNode arguments = KNOWN_CALLS.get(tool.name());
                if (arguments == null) {
                    continue;
                }
                ToolResult result = ((McpRemoteTool) tool).execute(new ToolCallRequest(tool.name(), arguments, agent,
                        context));
                out.println(tool.name() + " -> " + result.content());
                failed |= result.failed();
            }
            return failed ? 1 : 0;
        } catch (McpServerException e) {
            err.println(e.getMessage());
            return 1;
        }
    }
}
