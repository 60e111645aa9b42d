package io.countersign.service;

import io.countersign.engine.access.ApprovalDeclaration;
import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.ToolEffect;

/**
 * One tool as the admin sees it under the settings in force.
 *
 * @param server          the remote server it comes from, or {@code null} for a local tool
 * @param serverDeclaration the declaration on that server's record (which alone decides a remote tool's
 *                        approval), or {@code null} for a local tool
 * @param approvalBound   every call waits for a person's approval ({@link io.countersign.engine.access.ToolApprovalRule})
 * @param approvalControl whether an admin can change {@code approvalBound} per tool, and why not when fixed
 * @param asksForInput    calls wait for a person's typed input
 * @param runsUnattended  enabled, and calls run with no person involved (the unattended set,
 *                        {@link io.countersign.engine.access.UnattendedToolFilter})
 */
public record ToolSettingView(String name, String description, String group, ToolEffect effect, DataClass dataClass,
                              String server, ApprovalDeclaration serverDeclaration, boolean enabled, boolean approvalBound, ApprovalControl approvalControl,
                              boolean asksForInput, boolean runsUnattended) {

    /** Who decides whether a tool needs approval, in the order {@link io.countersign.engine.access.ToolApprovalRule} asks. */
    public enum ApprovalControl {
        /** The tool carries the approval marker: always approval-bound. */
        MARKER("the approval marker"),
        /** A remote tool: approval-bound only when its server record declares it so. */
        REMOTE("remote: follows its server's declaration"),
        /** A write tool: always approval-bound. */
        WRITE("write tools always need approval"),
        /** A configurable tool: the admin's per-tool setting decides. */
        CONFIGURABLE(null),
        /** Neither write nor marked nor configurable: never approval-bound. */
        NEVER("read tools without the configurable marker never need approval");

        private final String fixedReason;

        ApprovalControl(String fixedReason) {
            this.fixedReason = fixedReason;
        }

        public boolean configurable() {
            return this == CONFIGURABLE;
        }

        /** Why the per-tool setting cannot change it; {@code null} for a configurable tool. */
        public String fixedReason() {
            return fixedReason;
        }
    }
}
