package io.countersign.engine.tool;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.invocation.ToolExecutionContext;
import io.countersign.engine.run.AgentConfiguration;
import java.util.Objects;

/**
 * One call as a tool receives it: the final arguments, the agent configuration it runs under (its workspace,
 * for file tools) and who the call runs for.
 */
public record ToolCallRequest(String toolName, ObjectNode arguments, AgentConfiguration configuration,
                              ToolExecutionContext context) {
    public ToolCallRequest {
        Objects.requireNonNull(toolName, "toolName");
        Objects.requireNonNull(arguments, "arguments");
        Objects.requireNonNull(configuration, "configuration");
        Objects.requireNonNull(context, "context");
        arguments = arguments.deepCopy();
    }

    @Override
    public ObjectNode arguments() {
        return arguments.deepCopy();
    }
}
