package io.countersign.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * SIGTERM and SIGINT taken as a request to stop, instead of the JVM's default of shutting down at once: a
 * command that holds work (a worker) finishes it, prints its report and ends with its own exit code, where a
 * shutdown hook would race the report and end with 143. Closing puts the previous handlers back.
 */
final class StopSignals implements AutoCloseable {
    private static final String[] SIGNALS = {"TERM", "INT"};
    private final Map<Signal, SignalHandler> previous = new LinkedHashMap<>();

    private StopSignals(Runnable stop) {
        for (String name : SIGNALS) {
            Signal signal = new Signal(name);
            previous.put(signal, Signal.handle(signal, received -> stop.run()));
        }
    }

    /** Calls {@code stop} (on a signal thread) for each SIGTERM or SIGINT until closed. */
    static StopSignals onStop(Runnable stop) {
        return new StopSignals(stop);
    }

    @Override
    public void close() {
        previous.forEach(Signal::handle);
    }
}
