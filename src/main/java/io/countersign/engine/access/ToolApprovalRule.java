package io.countersign.engine.access;

import io.countersign.engine.port.ToolSettingsSource;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.ToolSettings;

/**
 * Whether a tool needs a human approval under the admin's settings as they are now; the rule itself is
 * {@link ToolSettings#requiresApproval}.
 */
public final class ToolApprovalRule {
    private final ToolSettingsSource settings;

    public ToolApprovalRule(ToolSettingsSource settings) {
        this.settings = settings;
    }

    public boolean requiresApproval(Tool tool) {
        return settings.current().requiresApproval(tool);
    }
}
