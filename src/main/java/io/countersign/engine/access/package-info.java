/**
 * Gates and approval, above the ports they read: {@link io.countersign.engine.access.ToolAccessPolicy} says which
 * tools may be offered (five gates, each denial a {@code tool_denied} event),
 * {@link io.countersign.engine.access.ToolApprovalRule} asks the admin's settings as they are now whether a call needs
 * a human, and {@link io.countersign.engine.access.UnattendedToolFilter} keeps the tools that never pause. The
 * settings and the remote servers' three-valued declarations themselves are tool values
 * ({@link io.countersign.engine.tool.ToolSettings}).
 */
package io.countersign.engine.access;
