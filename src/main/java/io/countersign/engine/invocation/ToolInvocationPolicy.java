package io.countersign.engine.invocation;

import io.countersign.engine.call.InvocationVerdict;

/**
 * Asks every rule, in order, about a call just before it executes; the first denial wins. With no rules every
 * call is allowed, exactly as if the feature were absent.
 */
@FunctionalInterface
public interface ToolInvocationPolicy {

    /**
     * The verdict for a call. {@code context.target()} is ignored: the policy resolves the target itself and
     * reports it in the verdict.
     */
    InvocationVerdict evaluate(ToolInvocationContext context);
}
