package io.countersign.service;

import java.time.Instant;
import java.util.List;

/**
 * A run whose decision is committed and not yet carried out, because the MCP servers its calls need did not
 * connect in the process that held it; the next process that can connect them carries it out.
 *
 * @param approval whether the decision was on an approval card (else it gave a form's input)
 * @param summary  the decision in a few words, as its event reads
 * @param servers  the servers it waits for, in name order
 */
public record DecidedRun(String runId, String agent, String initiator, String decidedBy, Instant decidedAt,
                         boolean approval, String summary, List<String> servers) {
    public DecidedRun {
        servers = List.copyOf(servers);
    }

    /** Why the run does not move, in the words of its card: "approved, waiting for server files to connect". */
    public String reason() {
        return (approval ? "approved" : "input given") + (servers.isEmpty() ? ", waiting for a process to carry it"
                + " out" : ", waiting for server " + String.join(", ", servers) + " to connect");
    }
}
