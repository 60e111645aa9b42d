package io.countersign.engine.port;

/** Port: tells that something in the store changed, in this process or in another on the same store. */
public interface StoreChanges {

    /** Calls {@code listener} after every change of a run or a decision from now on, until closed. */
    Subscription onRunChange(Runnable listener);

    /**
     * Calls {@code listener} after every run queued for a worker and every decision (one committed for a worker
     * among them) from now on, until closed: what a worker waiting for work needs, without every pause and end.
     */
    Subscription onQueueChange(Runnable listener);

    /** Calls {@code listener} after every change of the settings or the server records from now on, until closed. */
    Subscription onSettingsChange(Runnable listener);

    /** A subscription; closing it stops the calls to its listener. */
    @FunctionalInterface
    interface Subscription extends AutoCloseable {
        @Override
        void close();
    }
}
