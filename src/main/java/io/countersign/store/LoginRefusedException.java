package io.countersign.store;

import java.util.Optional;

/**
 * The PostgreSQL server asked the login for a password and none was found, or the one given is wrong: a person
 * at a desk can be asked for it. The message is the sentence for the command line.
 */
public final class LoginRefusedException extends StoreUnavailableException {
    /** Why the server turned the login away. */
    public enum Reason { NO_PASSWORD, WRONG_PASSWORD }

    private final Reason reason;
    private final String user;

    LoginRefusedException(String message, Reason reason, Optional<String> user, Throwable cause) {
        super(message, cause);
        this.reason = reason;
        this.user = user.orElse(null);
    }

    public Reason reason() {
        return reason;
    }

    /** The login the URL names; empty when it names none and the driver chose its default. */
    public Optional<String> user() {
        return Optional.ofNullable(user);
    }
}
