package io.countersign.service;

/** One change an admin asks for. */
public sealed interface SettingRequest {

    /** Turns a tool on or off; a disabled tool is never offered. */
    record ToolEnabled(String tool, boolean enabled) implements SettingRequest {
    }

    /** Sets whether a configurable tool needs approval. */
    record ToolApprovalBound(String tool, boolean approvalBound) implements SettingRequest {
    }

    /** Declares whether the tools of a remote server need approval (its server record's declaration). */
    record ServerApprovalBound(String server, boolean approvalBound) implements SettingRequest {
    }
}
