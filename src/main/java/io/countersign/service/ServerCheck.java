package io.countersign.service;

import io.countersign.engine.tool.ImportReport;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** What testing an MCP server found: its tools, or why it could not be used. Testing writes nothing. */
public sealed interface ServerCheck {

    /**
     * The server answered the handshake and listed its tools.
     *
     * @param tools   the names its tools would have in the registry, in the server's order
     * @param skipped the tools that would not be imported, each with the reason
     * @param credentialStore where the OAuth grant used is kept (such as "the Secret Service (D-Bus)"), when the
     *                        server was reached through an OAuth sign-in
     */
    record Reachable(String server, List<String> tools, List<ImportReport.SkippedTool> skipped,
                     Optional<String> credentialStore) implements ServerCheck {
        public Reachable {
            tools = List.copyOf(tools);
            skipped = List.copyOf(skipped);
            Objects.requireNonNull(credentialStore, "credentialStore");
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
