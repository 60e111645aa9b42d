package io.countersign.engine.tool;

import java.util.List;
import java.util.Objects;

/**
 * What one import of a server's tool list did to the registry.
 *
 * @param registered the names this server's tools have in the registry now, in the server's order
 * @param removed    names that were unregistered because the server no longer lists their tool
 * @param skipped    tools of the server that were not registered, each with the reason
 */
public record ImportReport(String server, Trigger trigger, List<String> registered, List<String> removed,
                           List<SkippedTool> skipped) {
    public ImportReport {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(trigger, "trigger");
        registered = List.copyOf(registered);
        removed = List.copyOf(removed);
        skipped = List.copyOf(skipped);
    }

    /** Why the tool list was read. */
    public enum Trigger {
        /** The source was opened. */
        CONNECT,
        /** The server sent {@code notifications/tools/list_changed}. */
        LIST_CHANGED,
        /** A new session replaced one that was lost. */
        RECONNECT,
        /** Someone asked, such as an admin testing the server. */
        REFRESH
    }

    /** A tool the server lists but the registry does not hold, and why, for the admin to act on. */
    public record SkippedTool(String remoteName, String reason) {
        public SkippedTool {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
