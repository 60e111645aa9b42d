package io.countersign.service;

import io.countersign.engine.tool.ImportReport;
import java.util.List;

/** What testing an MCP server found: its tools, or why it could not be used. Testing writes nothing. */
public sealed interface ServerCheck {

    /**
     * The server answered the handshake and listed its tools.
     *
     * @param tools   the names its tools would have in the registry, in the server's order
     * @param skipped the tools that would not be imported, each with the reason
     */
    record Reachable(String server, List<String> tools, List<ImportReport.SkippedTool> skipped)
            implements ServerCheck {
        public Reachable {
            tools = List.copyOf(tools);
            skipped = List.copyOf(skipped);
        }
    }

    /**
     * The server could not be started, reached or understood.
     *
     * @param problem what kind of failure, such as {@code unreachable} or {@code timed_out}
     * @param message what happened, naming the server; never a secret
     */
    record Unreachable(String server, String problem, String message) implements ServerCheck {
    }

    /** No server has this name. */
    record NoSuchServer(String name) implements ServerCheck {
    }
}
