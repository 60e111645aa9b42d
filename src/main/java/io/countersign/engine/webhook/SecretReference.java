package io.countersign.engine.webhook;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Where a webhook's signing secret is kept: an environment variable ({@code env:NAME}) or a file
 * ({@code file:PATH}). The store keeps only this reference; the value is read when an event is sent.
 */
public record SecretReference(Kind kind, String name) {
    /** The two places a secret may be kept. */
    public enum Kind {
        ENV("env:"),
        FILE("file:");

        private final String prefix;

        Kind(String prefix) {
            this.prefix = prefix;
        }

        public String prefix() {
            return prefix;
        }
    }

    public SecretReference {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(name, "name");
    }

    /**
     * Reads {@code env:NAME} or {@code file:PATH}.
     *
     * @throws IllegalArgumentException for anything else, saying which forms are accepted; the text itself is not
     *                                  repeated, since it may be a secret typed by mistake
     */
    public static SecretReference parse(String reference) {
        if (reference == null || reference.isBlank()) {
            throw new IllegalArgumentException("no webhook secret given; name where it is kept: env:NAME (an"
                    + " environment variable) or file:PATH (a file)");
        }
        String text = reference.strip();
        if (text.startsWith(Kind.ENV.prefix)) {
            String variable = text.substring(Kind.ENV.prefix.length());
            if (!variable.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                throw new IllegalArgumentException("the webhook secret's environment variable must be a name of"
                        + " letters, digits and underscores not starting with a digit, as in env:HOOK_SECRET");
            }
            return new SecretReference(Kind.ENV, variable);
        }
        if (text.startsWith(Kind.FILE.prefix)) {
            String file = text.substring(Kind.FILE.prefix.length());
            try {
                if (file.isBlank() || !Path.of(file).isAbsolute()) {
                    throw new IllegalArgumentException("the webhook secret's file must be an absolute path, as in"
                            + " file:/etc/countersign/hook-secret; got file:" + file);
                }
            } catch (InvalidPathException e) {
                throw new IllegalArgumentException("the webhook secret's file is not a valid path: " + file, e);
            }
            return new SecretReference(Kind.FILE, file);
        }
        throw new IllegalArgumentException("a webhook secret is given as a reference, env:NAME or file:PATH, never"
                + " as the value itself; the store keeps only the reference");
    }

    /** As typed: {@code env:NAME} or {@code file:PATH}. */
    @Override
    public String toString() {
        return kind.prefix + name;
    }
}
