package io.countersign.service;

import io.countersign.engine.tool.ApprovalDeclaration;
import io.countersign.engine.tool.RemoteDeclaration;
import io.countersign.engine.tool.DataClass;
import io.countersign.engine.tool.ToolEffect;

/**
 * One tool as the admin sees it under the settings in force.
 *
 * @param effect          a local tool's effect; {@code null} for a remote tool, whose effect is not known (its
 *                        declaration decides whether it waits)
 * @param server          the remote server it comes from, or {@code null} for a local tool
 * @param serverDeclaration the declaration on that server's record, which a remote tool without a declaration of
 *                        its own follows, or {@code null} for a local tool
 * @param declaration     the declaration that decides a remote tool's approval, where it comes from and who made
 *                        it, or {@code null} for a local tool
 * @param serverClaims    what a remote tool's server says of it ("server says: read-only"), shown and never used to
 *                        decide; empty when it says nothing or the tool is local
 * @param approvalBound   every call waits for a person's approval ({@link io.countersign.engine.access.ToolApprovalRule})
 * @param approvalControl whether an admin can change {@code approvalBound} per tool, and why not when fixed
 * @param asksForInput    calls wait for a person's typed input
 * @param runsUnattended  enabled, and calls run with no person involved (the unattended set,
 *                        {@link io.countersign.engine.access.UnattendedToolFilter})
 */
public record ToolSettingView(String name, String description, String group, ToolEffect effect, DataClass dataClass,
                              String server, ApprovalDeclaration serverDeclaration, RemoteDeclaration declaration,
                              String serverClaims, boolean enabled, boolean approvalBound,
                              ApprovalControl approvalControl, boolean asksForInput, boolean runsUnattended) {

    /** Who decides whether a tool needs approval, in the order {@link io.countersign.engine.access.ToolApprovalRule} asks. */
    public enum ApprovalControl {
        /** The tool carries the approval marker: always approval-bound. */
        MARKER("the approval marker"),
        /** A remote tool: its own declaration, else its server record's; an admin may declare it by itself. */
        REMOTE(null),
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

        /** Whether an admin can set it per tool: a configurable tool's setting, a remote tool's own declaration. */
        public boolean configurable() {
            return this == CONFIGURABLE || this == REMOTE;
        }

        /** Why the per-tool setting cannot change it; {@code null} when it can. */
        public String fixedReason() {
            return fixedReason;
        }
    }
}
