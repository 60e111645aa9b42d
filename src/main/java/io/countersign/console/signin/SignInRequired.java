package io.countersign.console.signin;

import java.util.Objects;

/**
 * The store's server wants a password for the login that the opening could not give it: the console asks the
 * person in the sign-in dialog instead of failing. The message is the store's own sentence.
 */
public final class SignInRequired extends RuntimeException {
    /** Why the server turned the login away. */
    public enum Refusal { NO_PASSWORD, WRONG_PASSWORD }

    private final String url;
    private final String user;
    private final Refusal refusal;

    /**
     * @param url  the store URL without its login, as the dialog shows it
     * @param user the login that was refused, blank when the URL named none
     */
    public SignInRequired(String url, String user, Refusal refusal, String message) {
        super(message);
        this.url = Objects.requireNonNull(url, "url");
        this.user = Objects.requireNonNull(user, "user");
        this.refusal = Objects.requireNonNull(refusal, "refusal");
    }

    public String url() {
        return url;
    }

    public String user() {
        return user;
    }

    public Refusal refusal() {
        return refusal;
    }
}
