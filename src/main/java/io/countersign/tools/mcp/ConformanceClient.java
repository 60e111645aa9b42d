package io.countersign.tools.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.call.ToolExecutionContext;
import io.countersign.engine.tool.ImportReport;
import io.countersign.engine.tool.InputPrompts;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.ToolCallRequest;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.engine.tool.ToolResult;
import java.io.PrintStream;
import java.net.URI;
import java.util.Locale;

/**
 * The client that the MCP conformance suite ({@code @modelcontextprotocol/conformance}, client mode) launches:
 * {@code java -cp <class path> io.countersign.tools.mcp.ConformanceClient <server URL>}. It connects over
 * Streamable HTTP through {@link McpToolSource}, as the console does, so the handshake, the tool listing and the
 * calls are the console's own; then it calls every listed tool, as a model would, with arguments made from the
 * tool's input schema ({@link #exampleArguments}). A server's question during a call is answered as a person who
 * accepts the form as it is offered, each field at its default ({@link #acceptingDefaults}). A server that wants
 * OAuth is signed in to as {@link ConformanceSignIn} says: the suite's authorization server redirects at once, so
 * the "browser" is an HTTP client that follows the redirect to the loopback listener. The exit status is 0 when
 * every step worked.
 */
public final class ConformanceClient {
    private static final String SERVER = "conformance";

    private ConformanceClient() {
    }

    public static void main(String[] args) {
        if (args.length == 0) {
            System.err.println("usage: ConformanceClient <server URL>");
            System.exit(2);
        }
        System.exit(run(URI.create(args[args.length - 1]), System.out, System.err));
    }

    /**
     * Arguments that fit an object schema: each property's default where it has one, else its first enum value,
     * else a plain value of its type.
     */
    static ObjectNode exampleArguments(JsonNode schema) {
        ObjectNode arguments = JsonNodeFactory.instance.objectNode();
        schema.path("properties").fields().forEachRemaining(property -> {
            JsonNode definition = property.getValue();
            JsonNode value = definition.has("default") ? definition.get("default")
                    : definition.path("enum").path(0).isMissingNode() ? exampleOf(definition.path("type").asText())
                    : definition.path("enum").get(0);
            arguments.set(property.getKey(), value);
        });
        return arguments;
    }

    /** A person who accepts every form with the values it comes with: each field's default, where it has one. */
    static InputPrompts acceptingDefaults(Actor person) {
        return question -> {
            if (question.fields().isEmpty()) {
                return new InputPrompts.Answer.Declined(person, "the form cannot be shown as typed fields");
            }
            ObjectNode values = JsonNodeFactory.instance.objectNode();
            question.fields().stream().filter(field -> field.schema().has("default"))
                    .forEach(field -> values.set(field.name(), field.schema().get("default")));
            return new InputPrompts.Answer.Accepted(person, values);
        };
    }

    private static JsonNode exampleOf(String type) {
        JsonNodeFactory json = JsonNodeFactory.instance;
        return switch (type) {
            case "integer", "number" -> json.numberNode(1);
            case "boolean" -> json.booleanNode(true);
            case "array" -> json.arrayNode();
            case "object" -> json.objectNode();
            default -> json.textNode(SERVER);
        };
    }

    static int run(URI url, PrintStream out, PrintStream err) {
        // the console's own deadlines: the suite tests what the client does, not how fast a cold JVM signs in
        McpServerRecord record = McpServerRecord.streamableHttp(SERVER, url);
        ToolRegistry registry = new ToolRegistry();
        try (McpToolSource source = McpToolSource.builder(record, registry).oauth(ConformanceSignIn.setup(
                System.getenv("MCP_CONFORMANCE_CONTEXT"))).build()) {
            ImportReport report = source.open();
            out.println("connected; tools: " + report.registered());
            Actor person = Actor.of(SERVER, Role.OPERATOR);
            ToolExecutionContext context = ToolExecutionContext.of(person, SERVER, Locale.ENGLISH);
            boolean failed = false;
            // every tool in this registry came from the source, and a remote tool reports failures as results
            for (Tool tool : registry.tools()) {
                ObjectNode arguments = exampleArguments(tool.argumentSchema());
                ToolResult result = ((McpRemoteTool) tool).execute(new ToolCallRequest(tool.name(), arguments, null, context,
                        acceptingDefaults(person)));
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
