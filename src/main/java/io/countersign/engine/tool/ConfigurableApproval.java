package io.countersign.engine.tool;

/**
 * A tool whose approval follows an admin setting (see {@link ToolSettings#approvalSetting}). A configurable
 * tool with a {@link ToolEffect#WRITE} effect needs approval whatever the setting says.
 */
public interface ConfigurableApproval extends Tool {

    /** Whether the tool needs approval while no admin has said otherwise. */
    default boolean approvalByDefault() {
        return true;
    }
}
