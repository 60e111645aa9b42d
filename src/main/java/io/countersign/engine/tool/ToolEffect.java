package io.countersign.engine.tool;

/** What a tool does to the world: a {@code WRITE} always needs a human unless a rule says otherwise. */
public enum ToolEffect {
    READ,
    WRITE
}
