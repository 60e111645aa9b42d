package io.countersign.service;

import io.countersign.engine.access.SettingChange;
import io.countersign.engine.tool.McpServerRecord;
import java.util.List;

/** What became of a change to the MCP server records. */
public sealed interface ServerResult {

    /** The record was added or changed; {@code changes} is empty when it already was as asked. */
    record Saved(McpServerRecord server, List<SettingChange> changes) implements ServerResult {
        public Saved {
            changes = List.copyOf(changes);
        }
    }

    /** The record was removed, and its server's tools with it. */
    record Removed(String name, List<SettingChange> changes) implements ServerResult {
        public Removed {
            changes = List.copyOf(changes);
        }
    }

    /** No server has this name; nothing changed. */
    record NoSuchServer(String name) implements ServerResult {
    }

    /** A server of this name exists already; nothing changed. */
    record NameTaken(String name) implements ServerResult {
    }
}
