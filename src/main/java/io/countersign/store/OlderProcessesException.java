package io.countersign.store;

import java.util.List;

/**
 * A migration was refused because processes of an older build still have the store open; nothing was written.
 * The message names them and says what to do.
 */
public final class OlderProcessesException extends StoreUnavailableException {
    private final List<String> processes;

    OlderProcessesException(String message, List<String> processes) {
        super(message);
        this.processes = List.copyOf(processes);
    }

    /** Each process, as "pid 4242 on build-3, open for 12 min, last heard 3 s ago". */
    public List<String> processes() {
        return processes;
    }
}
