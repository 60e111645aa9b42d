package io.countersign.tools;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Actor;
import io.countersign.engine.Role;
import io.countersign.engine.call.ToolExecutionContext;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.ToolCallRequest;
import io.countersign.engine.tool.ToolPreview;
import io.countersign.engine.tool.ToolResult;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** Builds the requests the loop would hand a tool, for an agent working in a given folder. */
final class Calls {
    static final ObjectMapper JSON = new ObjectMapper();
    private static final ToolExecutionContext CONTEXT =
            ToolExecutionContext.of(Actor.of("ada", Role.OPERATOR), "run-1", Locale.ENGLISH);

    private Calls() {
    }

    /** Arguments from alternating names and string values. */
    static ObjectNode arguments(String... namesAndValues) {
        ObjectNode arguments = JSON.createObjectNode();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            arguments.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        return arguments;
    }

    static ObjectNode json(String text) {
        try {
            return (ObjectNode) JSON.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(text, e);
        }
    }

    /** A request from an agent whose workspace is the given folder, or which has none when it is null. */
    static ToolCallRequest request(Tool tool, Path workspace, ObjectNode arguments) {
        AgentConfiguration agent = AgentConfiguration.of("coder", ModelConfiguration.scripted("scripted"),
                List.of(tool.group()));
        if (workspace != null) {
            agent = agent.withWorkspace(workspace.toString());
        }
        return new ToolCallRequest(tool.name(), arguments, agent, CONTEXT);
    }

    static ToolResult execute(Tool tool, Path workspace, ObjectNode arguments) throws Exception {
        return tool.execute(request(tool, workspace, arguments));
    }

    static ToolResult execute(Tool tool, Path workspace, String... namesAndValues) throws Exception {
        return execute(tool, workspace, arguments(namesAndValues));
    }

    static ToolPreview preview(Tool tool, Path workspace, String... namesAndValues) {
        return tool.preview(request(tool, workspace, arguments(namesAndValues))).orElseThrow();
    }
}
