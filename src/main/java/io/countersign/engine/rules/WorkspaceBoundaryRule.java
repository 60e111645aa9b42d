package io.countersign.engine.rules;

import io.countersign.engine.call.ToolInvocationDecision;
import io.countersign.engine.invocation.PreApprovalInvocationRule;
import io.countersign.engine.invocation.ToolInvocationContext;

/**
 * Built-in rule {@code workspace.boundary}: the file tools ({@code fs_list}, {@code fs_read}, {@code fs_write},
 * {@code fs_delete}) may touch only paths inside the agent's workspace folder. Their {@code path} argument is
 * relative to the workspace or absolute; {@code ..} and symbolic links are followed as the file system would, so
 * a link pointing out of the workspace is caught.
 *
 * <p>Refusals: {@code outside_workspace} for a path outside the workspace, {@code no_workspace} when the agent
 * has none, {@code invalid_path} when the {@code path} argument is missing, not a string or not a path. Each
 * carries an explanation naming the workspace folder. Other tools are allowed.
 *
 * <p>Asked before the approval card too: its answer comes from the call and the configuration alone (it reads the
 * file system's links, never the history) and it writes nothing.
 */
public final class WorkspaceBoundaryRule implements PreApprovalInvocationRule {
    public static final String IDENTIFIER = "workspace.boundary";

    @Override
    public String identifier() {
        return IDENTIFIER;
    }

    @Override
    public ToolInvocationDecision decide(ToolInvocationContext context) {
        if (!FileToolPath.isFileTool(context.toolName())) {
            return ToolInvocationDecision.allow();
        }
        if (FileToolPath.locate(context.arguments(), context.configuration())
                instanceof FileToolPath.Refused refused) {
            String code = refused.reasonCode();
            String explanation = code.equals(FileToolPath.NO_WORKSPACE)
                    ? Explanations.explain(code, context.executionContext().locale())
                    : Explanations.explain(code, context.executionContext().locale(),
                            FileToolPath.workspaceName(context.configuration()));
            return ToolInvocationDecision.deny(code, explanation);
        }
        return ToolInvocationDecision.allow();
    }
}
