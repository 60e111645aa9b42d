package io.countersign.tools.gateway;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;

/**
 * What the gateway tells a host it serves beyond what the SDK's server was built with, in the answers on their way
 * out: the answer to {@code initialize} declares the {@code tasks} capability ({@link HostTasks}: listing,
 * cancelling, and {@code tools/call} as a task), and, while a fronted server whose tools are offered declares them,
 * subscriptions to resources' updates ({@code resources.subscribe}) and {@code completions}
 * ({@link FrontedRequests}); each tool of {@code tools/list} says that it may be called as a task
 * ({@code execution.taskSupport: optional}). A host learns the capabilities once, when it initializes: a server that
 * connects later adds its subscriptions and completions for the hosts that initialize after it.
 */
final class HostCapabilities {
    private volatile boolean subscriptions;
    private volatile boolean completions;

    /** What the fronted servers whose tools are offered declare now. */
    void fronted(boolean subscriptions, boolean completions) {
        this.subscriptions = subscriptions;
        this.completions = completions;
    }

    /** The message as the host gets it: an answer to {@code initialize} or {@code tools/list} says more. */
    McpSchema.JSONRPCMessage advertised(McpSchema.JSONRPCMessage message) {
        if (!(message instanceof McpSchema.JSONRPCResponse response) || response.result() == null) {
            return message;
        }
        if (response.result() instanceof McpSchema.InitializeResult initialized) {
            ObjectNode result = McpJsonDefaults.getMapper().convertValue(initialized, ObjectNode.class);
            ObjectNode capabilities = result.withObject("capabilities");
            ObjectNode tasks = capabilities.putObject("tasks");
            tasks.putObject("list");
            tasks.putObject("cancel");
            tasks.putObject("requests").putObject("tools").putObject("call");
            if (subscriptions) {
                capabilities.withObject("resources").put("subscribe", true);
            }
            if (completions) {
                capabilities.putObject("completions");
            }
            return McpSchema.JSONRPCResponse.result(response.id(), result);
        }
        if (response.result() instanceof McpSchema.ListToolsResult listed) {
            ObjectNode result = McpJsonDefaults.getMapper().convertValue(listed, ObjectNode.class);
            result.withArray("tools").forEach(tool -> ((ObjectNode) tool).putObject("execution")
                    .put("taskSupport", "optional"));
            return McpSchema.JSONRPCResponse.result(response.id(), result);
        }
        return message;
    }
}
