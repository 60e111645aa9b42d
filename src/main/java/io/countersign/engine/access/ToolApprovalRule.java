package io.countersign.engine.access;

import io.countersign.engine.port.ToolSettingsSource;
import io.countersign.engine.tool.ConfigurableApproval;
import io.countersign.engine.tool.RemoteTool;
import io.countersign.engine.tool.RequiresApproval;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.ToolEffect;

/**
 * The only place that decides whether a tool needs a human approval. In this order: no tool → no; the approval
 * marker → yes; a remote tool → its own declaration, else its server record's (not declared → no, whatever the
 * tool does or its server hints); a write effect → yes; a configurable tool → its admin setting; otherwise no.
 */
public final class ToolApprovalRule {
    private final ToolSettingsSource settings;

    public ToolApprovalRule(ToolSettingsSource settings) {
        this.settings = settings;
    }

    public boolean requiresApproval(Tool tool) {
        return requiresApproval(tool, settings.current());
    }

    /** The same rule against a given settings snapshot, such as a change an admin is previewing. */
    public static boolean requiresApproval(Tool tool, ToolSettings settings) {
        if (tool == null) {
            return false;
        }
        if (tool instanceof RequiresApproval) {
            return true;
        }
        if (tool instanceof RemoteTool remote) {
            // judged on the declaration alone: a tool of an undeclared server, not declared itself, runs without one
            return settings.declarationOf(remote.name(), remote.serverName()).approvalBound();
        }
        if (tool.effect() == ToolEffect.WRITE) {
            return true;
        }
        if (tool instanceof ConfigurableApproval configurable) {
            return settings.approvalSetting(configurable);
        }
        return false;
    }
}
