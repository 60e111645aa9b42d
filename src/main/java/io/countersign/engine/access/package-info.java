/**
 * Gates and approval: {@link io.countersign.engine.access.ToolAccessPolicy} says which tools may be offered (five
 * gates, each denial a {@code tool_denied} event), {@link io.countersign.engine.access.ToolApprovalRule} is the one
 * place that says whether a call needs a human, and {@link io.countersign.engine.access.UnattendedToolFilter} keeps
 * the tools that never pause. The admin's settings and the remote servers' three-valued declarations are read from
 * {@link io.countersign.engine.tool.ToolSettings}.
 */
package io.countersign.engine.access;
