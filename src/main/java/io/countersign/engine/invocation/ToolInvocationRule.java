package io.countersign.engine.invocation;

import io.countersign.engine.call.ToolInvocationDecision;

/**
 * An installation's restriction on calls, asked immediately before every call executes. Found through
 * {@link java.util.ServiceLoader} or registered in code.
 */
public interface ToolInvocationRule {

    /** Unique, stable code, {@code [a-z][a-z0-9_.-]*}, at most 64 ASCII characters. */
    String identifier();

    ToolInvocationDecision decide(ToolInvocationContext context);

    /**
     * True when the rule's answer depends on prior outcomes: it is then not called for a history that cannot be
     * proven whole, and the call is refused {@code history_incomplete}.
     */
    default boolean requiresCompleteHistory() {
        return false;
    }
}
