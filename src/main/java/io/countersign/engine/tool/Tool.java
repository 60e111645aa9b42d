package io.countersign.engine.tool;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;

/**
 * Something a model may ask to have done. A tool is registered once under its unique name; markers
 * ({@link RequiresApproval}, {@link ConfigurableApproval}, {@link RemoteTool}, {@link RequiresInput}) say
 * whether a human must be involved, and {@link ToolApprovalRule} is the only place that reads them.
 */
public interface Tool {

    /** Unique name, {@code [a-z][a-z0-9_.-]*}, at most 64 characters. */
    String name();

    /** What the tool does, as the model reads it. */
    String description();

    /** JSON Schema of the arguments; always an object schema. */
    ObjectNode argumentSchema();

    ToolEffect effect();

    DataClass dataClass();

    /** The group an admin enables or disables together and an agent configuration may name. */
    String group();

    /** True when only an admin may be offered this tool. */
    default boolean adminOnly() {
        return false;
    }

    /**
     * Runs the call. An exception is an unexpected failure: its text is never shown to the model or stored.
     * Expected failures (a missing file, a path outside the workspace) are {@link ToolResult#failure} values.
     */
    ToolResult execute(ToolCallRequest request) throws Exception;

    /**
     * What the call would do, for the person who approves it (for a file write: the diff). Called when a run
     * pauses and again just before an approved call executes; must not change anything.
     */
    default Optional<ToolPreview> preview(ToolCallRequest request) {
        return Optional.empty();
    }
}
