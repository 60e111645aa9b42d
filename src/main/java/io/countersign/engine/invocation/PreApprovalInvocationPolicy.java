package io.countersign.engine.invocation;

import io.countersign.engine.call.InvocationVerdict;

/**
 * Asks only the {@link PreApprovalInvocationRule}s about an approval-bound call, at the approval scan, before a
 * card is shown.
 */
@FunctionalInterface
public interface PreApprovalInvocationPolicy {

    InvocationVerdict evaluate(ToolInvocationContext context);
}
