package io.countersign.engine.invocation;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.agent.AgentConfiguration;
import java.util.Objects;

/**
 * What a rule sees of a call: the tool, its FINAL arguments (after redirect, edit or input overlay), the agent
 * configuration, the resolved target (or {@code null}), who the run acts for, and the invocation history.
 */
public record ToolInvocationContext(String toolName, ObjectNode arguments, AgentConfiguration configuration,
                                    ToolInvocationTarget target, ToolExecutionContext executionContext,
                                    ToolInvocationHistory history) {
    public ToolInvocationContext {
        Objects.requireNonNull(toolName, "toolName");
        Objects.requireNonNull(arguments, "arguments");
        Objects.requireNonNull(configuration, "configuration");
        Objects.requireNonNull(executionContext, "executionContext");
        Objects.requireNonNull(history, "history");
    }
}
