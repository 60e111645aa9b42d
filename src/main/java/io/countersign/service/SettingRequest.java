package io.countersign.service;

import io.countersign.engine.tool.ApprovalDeclaration;

/** One change an admin asks for. */
public sealed interface SettingRequest {

    /** Turns a tool on or off; a disabled tool is never offered. */
    record ToolEnabled(String tool, boolean enabled) implements SettingRequest {
    }

    /**
     * Sets whether a configurable tool needs approval; for a remote tool, the same as declaring it by itself
     * ({@link ToolDeclaration}).
     */
    record ToolApprovalBound(String tool, boolean approvalBound) implements SettingRequest {
    }

    /**
     * Declares a single remote tool approval-bound or not, whatever its server's declaration; {@code NOT_DECLARED}
     * takes its own declaration away, so that it follows its server's again.
     */
    record ToolDeclaration(String tool, ApprovalDeclaration declaration) implements SettingRequest {
    }

    /** Declares whether the tools of a remote server need approval (its server record's declaration). */
    record ServerApprovalBound(String server, boolean approvalBound) implements SettingRequest {
    }
}
