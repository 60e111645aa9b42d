package io.countersign.engine;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** Names the target of the calls it understands; {@code null} for the others. */
public interface ToolTargetResolver {

    ToolInvocationTarget resolve(String toolName, ObjectNode arguments, AgentConfiguration configuration);
}
