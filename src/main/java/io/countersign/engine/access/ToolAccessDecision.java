package io.countersign.engine.access;

import java.util.Objects;

/** Whether one tool may be offered, and if not, the gate that refused it. */
public record ToolAccessDecision(String toolName, ToolDenialReason denialReason) {
    public ToolAccessDecision {
        Objects.requireNonNull(toolName, "toolName");
    }

    public boolean permitted() {
        return denialReason == null;
    }
}
