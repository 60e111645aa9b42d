package io.countersign.engine.run;

import io.countersign.engine.Names;
import io.countersign.engine.access.TrustZone;
import java.util.Objects;

/**
 * A model an agent may talk to: which provider and model, where, in which trust zone, with which options. The
 * API key is never held here; {@code apiKeyEnvironment} or {@code apiKeyFile} say where the adapter reads it.
 * {@code temperature} and {@code maxTokens} are {@code null} when the provider's default applies.
 */
public record ModelConfiguration(String name, String provider, String model, String endpoint, TrustZone trustZone,
                                 Double temperature, Integer maxTokens, String apiKeyEnvironment,
                                 String apiKeyFile) {
    public ModelConfiguration {
        Names.requireCode(name, "model configuration name");
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(trustZone, "trustZone");
        if (temperature != null && (temperature < 0 || temperature > 2)) {
            throw new IllegalArgumentException("temperature must be between 0 and 2, got " + temperature);
        }
        if (maxTokens != null && maxTokens < 1) {
            throw new IllegalArgumentException("maxTokens must be at least 1, got " + maxTokens);
        }
    }

    /** A configuration for a scripted (replayed) model, which runs locally. */
    public static ModelConfiguration scripted(String name) {
        return new ModelConfiguration(name, "scripted", name, null, TrustZone.LOCAL, null, null, null, null);
    }
}
