package io.countersign.store;

/**
 * The store could not be opened: locked, unreadable, not a database, unreachable, or not a Countersign store.
 * Nothing was written to it. The message is one sentence a person can act on.
 */
public class StoreUnavailableException extends StoreException {

    public StoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    public StoreUnavailableException(String message) {
        super(message);
    }
}
