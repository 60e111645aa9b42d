package io.countersign.engine.tool;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.call.ToolExecutionContext;
import java.util.Objects;

/**
 * One call as a tool receives it: the final arguments, the workspace folder of the agent it runs under (for file
 * tools; {@code null} when the agent has none), who the call runs for, whom the tool may ask for typed input while
 * it runs ({@code prompts}; {@link InputPrompts#DECLINE} in a run that cannot pause), and the way back to whoever
 * made the call ({@code caller}; {@link CallerChannel#NONE} for a model's call). A tool sees the agent's workspace,
 * not its whole configuration.
 */
public record ToolCallRequest(String toolName, ObjectNode arguments, String workspace,
                              ToolExecutionContext context, InputPrompts prompts, CallerChannel caller) {
    public ToolCallRequest {
        Objects.requireNonNull(toolName, "toolName");
        Objects.requireNonNull(arguments, "arguments");
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(prompts, "prompts");
        Objects.requireNonNull(caller, "caller");
        arguments = arguments.deepCopy();
    }

    /** A call whose caller hears nothing from it while it runs. */
    public ToolCallRequest(String toolName, ObjectNode arguments, String workspace,
                           ToolExecutionContext context, InputPrompts prompts) {
        this(toolName, arguments, workspace, context, prompts, CallerChannel.NONE);
    }

    /** A call whose tool may ask no one anything. */
    public ToolCallRequest(String toolName, ObjectNode arguments, String workspace,
                           ToolExecutionContext context) {
        this(toolName, arguments, workspace, context, InputPrompts.DECLINE);
    }

    @Override
    public ObjectNode arguments() {
        return arguments.deepCopy();
    }
}
