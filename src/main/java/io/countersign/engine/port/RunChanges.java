package io.countersign.engine.port;

/** Port: tells that runs or their decisions changed, in this process or in another on the same store. */
@FunctionalInterface
public interface RunChanges {

    /** Calls {@code listener} after every change of a run or a decision from now on, until closed. */
    Subscription onRunChange(Runnable listener);

    /** A subscription; closing it stops the calls to its listener. */
    @FunctionalInterface
    interface Subscription extends AutoCloseable {
        @Override
        void close();
    }
}
