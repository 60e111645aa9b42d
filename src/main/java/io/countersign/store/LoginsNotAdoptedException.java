package io.countersign.store;

/**
 * A PostgreSQL store carried over from Countersign 0.1 still names its people after operating-system users, which
 * are not database logins: nobody signs in with a role until its owner adopts the logins. The message is the
 * sentence for the person refused.
 */
public final class LoginsNotAdoptedException extends StoreException {
    /** Why every person is refused until the adoption. */
    static final String SENTENCE = "this store's people are still operating-system names from Countersign 0.1;"
            + " an admin runs `countersign store init --adopt-logins`";

    LoginsNotAdoptedException(String message) {
        super(message);
    }

    LoginsNotAdoptedException() {
        this(SENTENCE);
    }
}
