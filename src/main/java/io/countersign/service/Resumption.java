package io.countersign.service;

import io.countersign.engine.port.DecisionResult;
import java.util.List;

/**
 * What start-up did with a decision that was committed before a process stopped, before any of its calls
 * started: it was carried out again, or it could not be and the run waits again.
 */
public sealed interface Resumption {

    String runId();

    /** The decision went through as if the process had never stopped; {@code result} is its answer. */
    record CarriedOut(String runId, String decidedBy, DecisionResult result) implements Resumption {
    }

    /**
     * The decision could not be carried out here, because MCP servers its calls need did not connect in this
     * process: nothing ran, the decision stays committed, and the next process that can connect them carries it
     * out.
     */
    record WaitsForServers(String runId, String decidedBy, List<String> servers) implements Resumption {
        public WaitsForServers {
            servers = List.copyOf(servers);
        }
    }

    /**
     * The decision could not be carried out; {@code problem} says why. When {@code waitsAgain}, nothing executed
     * and the run is back in the inbox for a person. Otherwise it failed part-way (the store, say): the next
     * start-up reconciles the run again and flags any call that had started.
     */
    record NotCarriedOut(String runId, String decidedBy, String problem, boolean waitsAgain) implements Resumption {
    }
}
