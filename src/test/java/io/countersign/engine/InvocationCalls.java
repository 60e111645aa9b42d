package io.countersign.engine;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.call.ToolExecutionContext;
import io.countersign.engine.invocation.ToolInvocationContext;
import io.countersign.engine.call.ToolInvocationHistory;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.chat.ModelConfiguration;
import java.util.List;
import java.util.Locale;

/** Builds the calls the invocation policies are asked about, with plain defaults for everything else. */
public final class InvocationCalls {
    public static final Actor OPERATOR = Actor.of("olga", Role.OPERATOR);
    private static final ObjectMapper JSON = new ObjectMapper();

    private InvocationCalls() {
    }

    /** An agent without a workspace. */
    public static AgentConfiguration agent() {
        return AgentConfiguration.of("writer", ModelConfiguration.scripted("scripted"), List.of("files"));
    }

    public static ObjectNode arguments() {
        return JSON.createObjectNode();
    }

    public static ObjectNode arguments(String name, String value) {
        return JSON.createObjectNode().put(name, value);
    }

    /** A call without arguments, by an agent without a workspace, in a run with a complete empty history. */
    public static ToolInvocationContext call(String toolName) {
        return call(toolName, arguments(), agent(), ToolInvocationHistory.emptyComplete(), Locale.ENGLISH);
    }

    public static ToolInvocationContext call(String toolName, ObjectNode arguments, AgentConfiguration configuration) {
        return call(toolName, arguments, configuration, ToolInvocationHistory.emptyComplete(), Locale.ENGLISH);
    }

    public static ToolInvocationContext call(String toolName, ObjectNode arguments, AgentConfiguration configuration,
                                             ToolInvocationHistory history, Locale locale) {
        return new ToolInvocationContext(toolName, arguments, configuration, null,
                ToolExecutionContext.of(OPERATOR, "run-1", locale), history);
    }
}
