package io.countersign.engine.invocation;

/**
 * Asks only the {@link PreApprovalInvocationRule}s about an approval-bound call, at the approval scan, before a
 * card is shown.
 */
@FunctionalInterface
public interface PreApprovalInvocationPolicy {

    InvocationVerdict evaluate(ToolInvocationContext context);
}
