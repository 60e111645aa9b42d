package io.countersign.service;

import java.time.Duration;
import java.util.Set;

/**
 * Port: the MCP servers a process connects when calls need them, so that a decision's remote calls find their
 * tools here, or are left to a process where they can.
 */
public interface ServerConnections {
    /** A process that connects no server: every server it is asked for stays missing. */
    ServerConnections NONE = new ServerConnections() {
        @Override
        public void request(Set<String> servers) {
        }

        @Override
        public Set<String> await(Set<String> servers, Duration bound) {
            return Set.copyOf(servers);
        }
    };

    /** Starts connecting the named servers that are not connected or connecting yet; returns at once. */
    void request(Set<String> servers);

    /**
     * Waits, at most {@code bound}, until each named server has imported its tools or its attempt failed.
     *
     * @return the names of the servers whose tools are not offered here now
     */
    Set<String> await(Set<String> servers, Duration bound);
}
