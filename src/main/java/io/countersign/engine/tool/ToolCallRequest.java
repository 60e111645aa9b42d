package io.countersign.engine.tool;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.invocation.ToolExecutionContext;
import io.countersign.engine.run.AgentConfiguration;
import java.util.Objects;

/**
 * One call as a tool receives it: the final arguments, the agent configuration it runs under (its workspace,
 * for file tools), who the call runs for, and whom the tool may ask for typed input while it runs ({@code prompts};
 * {@link InputPrompts#DECLINE} in a run that cannot pause).
 */
public record ToolCallRequest(String toolName, ObjectNode arguments, AgentConfiguration configuration,
                              ToolExecutionContext context, InputPrompts prompts) {
    public ToolCallRequest {
        Objects.requireNonNull(toolName, "toolName");
        Objects.requireNonNull(arguments, "arguments");
        Objects.requireNonNull(configuration, "configuration");
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(prompts, "prompts");
        arguments = arguments.deepCopy();
    }

    /** A call whose tool may ask no one anything. */
    public ToolCallRequest(String toolName, ObjectNode arguments, AgentConfiguration configuration,
                           ToolExecutionContext context) {
        this(toolName, arguments, configuration, context, InputPrompts.DECLINE);
    }

    @Override
    public ObjectNode arguments() {
        return arguments.deepCopy();
    }
}
