package io.countersign.store;

/** The store failed to do what was asked; the message says what, and where the database said why. */
public class StoreException extends RuntimeException {

    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }

    public StoreException(String message) {
        super(message);
    }
}
