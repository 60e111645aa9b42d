package io.countersign.tools.mcp;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Json;
import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.engine.tool.RemoteTool;
import io.countersign.engine.tool.ServerHints;
import io.countersign.engine.tool.ToolCallRequest;
import io.countersign.engine.tool.ToolEffect;
import io.countersign.engine.tool.ToolResult;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * One tool of an MCP server as the registry holds it: named {@code <server>.<tool>}, described and typed as the
 * server lists it, grouped and classified by the server record. Whether it needs an approval is the server
 * record's declaration alone ({@code ToolApprovalRule}); the server's hints are not read.
 */
final class McpRemoteTool implements RemoteTool {
    private static final TypeReference<Map<String, Object>> ARGUMENTS = new TypeReference<>() {
    };

    /** Calls a tool of the server by the server's own name for it. */
    @FunctionalInterface
    interface Caller {
        /** Calls the tool; {@code answered} sees the result first, on the thread it arrived on. */
        McpSchema.CallToolResult call(String remoteName, Map<String, Object> arguments, ToolCallRequest request,
                                      Consumer<McpSchema.CallToolResult> answered);
    }

    private final String name;
    private final String remoteName;
    private final String description;
    private final ObjectNode schema;
    private final ServerHints hints;
    private final McpServerRecord server;
    private final Caller caller;

    McpRemoteTool(String name, String remoteName, String description, ObjectNode schema, ServerHints hints,
                  McpServerRecord server, Caller caller) {
        this.name = name;
        this.remoteName = remoteName;
        this.description = description;
        this.schema = schema.deepCopy();
        this.hints = hints;
        this.server = server;
        this.caller = caller;
    }

    @Override
    public String name() {
        return name;
    }

    /** The tool's name on its server. */
    String remoteName() {
        return remoteName;
    }

    @Override
    public String serverName() {
        return server.name();
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public ObjectNode argumentSchema() {
        return schema.deepCopy();
    }

    @Override
    public ServerHints hints() {
        return hints;
    }

    /**
     * Always {@code READ}, and never consulted: a remote tool needs an approval exactly when its server is
     * declared approval-bound, whatever it does.
     */
    @Override
    public ToolEffect effect() {
        return ToolEffect.READ;
    }

    @Override
    public DataClass dataClass() {
        return server.dataClass();
    }

    @Override
    public String group() {
        return server.group();
    }

    /**
     * A server that fails or does not answer in time gives a failed result, never an exception; a JSON-RPC
     * error's text stays out of it ({@link McpServerException#forModel()}). A server that stops or whose connection
     * breaks while the call is open may have carried it out: its outcome is unknown, said in words of our own, as is
     * that of a call its caller gave up while it ran and whose server did not answer after being asked to stop. A
     * result the server marks {@code isError} is the tool's own answer and is passed on as it is.
     */
    @Override
    public ToolResult execute(ToolCallRequest request) {
        Map<String, Object> arguments = Json.mapper().convertValue(request.arguments(), ARGUMENTS);
        AtomicReference<ToolResult> early = new AtomicReference<>();
        try {
            McpSchema.CallToolResult answer = caller.call(remoteName, arguments, request, result -> {
                ToolResult converted = McpToolResults.toToolResult(server.name(), remoteName, result);
                early.set(converted);
                request.caller().answered(converted);
            });
            ToolResult converted = early.get();
            return converted != null ? converted : McpToolResults.toToolResult(server.name(), remoteName, answer);
        } catch (McpServerException e) {
            if (e.kind() == McpServerException.Kind.STOPPED) {
                return ToolResult.outcomeUnknown("server \"" + server.name() + "\" went away during the call of "
                        + remoteName + (e.reason() == null ? "" : " (" + e.reason() + ")")
                        + ": whether it took effect is unknown");
            }
            if (e.kind() == McpServerException.Kind.WITHDRAWN) {
                return ToolResult.outcomeUnknown(e.getMessage());
            }
            return ToolResult.failure(e.forModel());
        }
    }

    /** True when the other tool is this one as the server describes it now, so it may stay registered. */
    boolean sameAs(McpRemoteTool other) {
        return name.equals(other.name) && remoteName.equals(other.remoteName)
                && description.equals(other.description) && schema.equals(other.schema)
                && hints.equals(other.hints) && server.equals(other.server);
    }

    @Override
    public String toString() {
        return "McpRemoteTool[" + name + "]";
    }
}
