package io.countersign.engine.tool;

/** Marker: every call of this tool waits for a human, whatever its effect. */
public interface RequiresApproval extends Tool {
}
