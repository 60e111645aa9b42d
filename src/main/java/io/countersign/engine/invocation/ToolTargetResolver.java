package io.countersign.engine.invocation;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.agent.AgentConfiguration;

/** Names the target of the calls it understands; {@code null} for the others. */
public interface ToolTargetResolver {

    ToolInvocationTarget resolve(String toolName, ObjectNode arguments, AgentConfiguration configuration);
}
