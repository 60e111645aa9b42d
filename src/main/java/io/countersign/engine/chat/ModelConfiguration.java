package io.countersign.engine.chat;

import io.countersign.engine.Names;
import io.countersign.engine.chat.TrustZone;
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

    /**
     * The provider of a gateway profile's "model": the MCP host connected to the gateway, which asks for the calls.
     * Only the gateway holding that host's connection carries out the decisions of its runs.
     */
    public static final String GATEWAY_PROVIDER = "gateway";

    /** A gateway profile's stand-in for a model: the connected MCP host, in the given trust zone. */
    public static ModelConfiguration gateway(String name, TrustZone zone) {
        return new ModelConfiguration(name, GATEWAY_PROVIDER, "mcp-host", null, zone, null, null, null, null);
    }

    /** True when an MCP host connected to a gateway asks for this configuration's calls. */
    public boolean hostDriven() {
        return GATEWAY_PROVIDER.equals(provider);
    }

    /** A configuration for a scripted (replayed) model, which runs locally. */
    public static ModelConfiguration scripted(String name) {
        return new ModelConfiguration(name, "scripted", name, null, TrustZone.LOCAL, null, null, null, null);
    }
}
