package io.countersign.engine.invocation;

/**
 * Marker: this rule is also asked before an approval card is shown, so nobody is asked to approve a call it
 * refuses. It promises that its answer comes from the call, the configuration and the execution context alone
 * (never the history) and that it writes nothing.
 */
public interface PreApprovalInvocationRule extends ToolInvocationRule {
}
