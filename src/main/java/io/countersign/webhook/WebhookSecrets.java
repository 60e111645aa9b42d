package io.countersign.webhook;

import io.countersign.engine.webhook.SecretReference;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.UnaryOperator;

/**
 * Reads a webhook's secret from where its reference points, afresh for every send: a rotated secret is used at
 * once, and the value is held nowhere. Failures name the place, never a value.
 */
final class WebhookSecrets {
    private final UnaryOperator<String> environment;

    WebhookSecrets(UnaryOperator<String> environment) {
        this.environment = environment;
    }

    /**
     * The secret, trimmed of surrounding white space (a file's final line break).
     *
     * @throws IllegalStateException when the variable is unset or empty, or the file cannot be read or is empty
     */
    String read(SecretReference reference) {
        String value;
        if (reference.kind() == SecretReference.Kind.ENV) {
            value = environment.apply(reference.name());
            if (value == null) {
                throw new IllegalStateException("the secret's environment variable " + reference.name()
                        + " is not set in this process");
            }
        } else {
            try {
                value = Files.readString(Path.of(reference.name()), StandardCharsets.UTF_8);
            } catch (IOException | RuntimeException e) {
                throw new IllegalStateException("the secret's file " + reference.name() + " cannot be read ("
                        + e.getClass().getSimpleName() + ")");
            }
        }
        String secret = value.strip();
        if (secret.isEmpty()) {
            throw new IllegalStateException("the secret in " + reference + " is empty");
        }
        return secret;
    }
}
