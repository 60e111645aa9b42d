package io.countersign.engine.state;

import java.util.Map;

/**
 * How a run is asked to behave: {@code unattended} offers only the tools that never pause (for callers with no
 * approval step); {@code toolChoice} is passed to the model ({@code null} for its default); {@code scope} holds
 * the values intent policies match on (a tenant, a brand).
 */
public record RunOptions(boolean unattended, String toolChoice, Map<String, String> scope) {
    public static final RunOptions DEFAULTS = new RunOptions(false, null, Map.of());

    public RunOptions {
        scope = scope == null ? Map.of() : Map.copyOf(scope);
    }

    public static RunOptions unattendedRun() {
        return new RunOptions(true, null, Map.of());
    }
}
