/**
 * Tools, near the bottom of the engine: a name, a description, a JSON Schema for the arguments, an effect, a data
 * class and a group, with the markers that decide how they are treated
 * ({@link io.countersign.engine.tool.RequiresApproval}, {@link io.countersign.engine.tool.ConfigurableApproval},
 * {@link io.countersign.engine.tool.RequiresInput}, {@link io.countersign.engine.tool.RemoteTool}); the request a
 * tool receives, the registry that holds them, the check of a call's arguments against the schema, the record of a
 * remote server that tools are imported from, and the admin's {@link io.countersign.engine.tool.ToolSettings} with
 * the one rule for whether a tool needs a human ({@link io.countersign.engine.tool.ToolSettings#requiresApproval}).
 */
package io.countersign.engine.tool;
