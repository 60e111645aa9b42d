package io.countersign.engine.port;

import io.countersign.engine.tool.ToolSettings;

/** Port: where the current admin settings come from (the store, or a fixed value in tests). */
@FunctionalInterface
public interface ToolSettingsSource {

    ToolSettings current();

    static ToolSettingsSource fixed(ToolSettings settings) {
        return () -> settings;
    }
}
