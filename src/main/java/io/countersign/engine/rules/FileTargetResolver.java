package io.countersign.engine.rules;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.call.ToolInvocationTarget;
import io.countersign.engine.invocation.ToolTargetResolver;
import io.countersign.engine.agent.AgentConfiguration;

/**
 * Names the target of a file tool call ({@code fs_list}, {@code fs_read}, {@code fs_write}, {@code fs_delete}):
 * kind {@code file}, identifier the path relative to the agent's workspace with {@code ..} and links resolved and
 * {@code /} between names ({@code .} for the workspace itself), so {@code notes/../a.md} and the absolute path of
 * {@code a.md} name the same target. Only the path is named, never the file's content.
 *
 * <p>{@code null} for other tools and for paths that are not inside a workspace ({@code workspace.boundary}
 * refuses those). A path inside that cannot be a target (over {@value ToolInvocationTarget#MAX_IDENTIFIER_LENGTH}
 * characters, control characters) fails resolution, which refuses the call {@code policy_failed}.
 */
public final class FileTargetResolver implements ToolTargetResolver {
    public static final String KIND = "file";

    @Override
    public ToolInvocationTarget resolve(String toolName, ObjectNode arguments, AgentConfiguration configuration) {
        if (FileToolPath.isFileTool(toolName)
                && FileToolPath.locate(arguments, configuration) instanceof FileToolPath.Inside inside) {
            return new ToolInvocationTarget(KIND, inside.identifier());
        }
        return null;
    }
}
