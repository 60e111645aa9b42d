package io.countersign.engine.tool;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.call.ToolExecutionContext;
import io.countersign.engine.agent.AgentConfiguration;
import java.util.Objects;

/**
 * One call as a tool receives it: the final arguments, the agent configuration it runs under (its workspace,
 * for file tools), who the call runs for, whom the tool may ask for typed input while it runs ({@code prompts};
 * {@link InputPrompts#DECLINE} in a run that cannot pause), and the way back to whoever made the call
 * ({@code caller}; {@link CallerChannel#NONE} for a model's call).
 */
public record ToolCallRequest(String toolName, ObjectNode arguments, AgentConfiguration configuration,
                              ToolExecutionContext context, InputPrompts prompts, CallerChannel caller) {
    public ToolCallRequest {
        Objects.requireNonNull(toolName, "toolName");
        Objects.requireNonNull(arguments, "arguments");
        Objects.requireNonNull(configuration, "configuration");
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(prompts, "prompts");
        Objects.requireNonNull(caller, "caller");
        arguments = arguments.deepCopy();
    }

    /** A call whose caller hears nothing from it while it runs. */
    public ToolCallRequest(String toolName, ObjectNode arguments, AgentConfiguration configuration,
                           ToolExecutionContext context, InputPrompts prompts) {
        this(toolName, arguments, configuration, context, prompts, CallerChannel.NONE);
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
