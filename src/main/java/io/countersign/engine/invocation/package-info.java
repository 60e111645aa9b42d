/**
 * Invocation rules, above the call values they judge: {@link io.countersign.engine.invocation.ToolInvocationRule}s
 * asked right before every call (and the {@link io.countersign.engine.invocation.PreApprovalInvocationRule}s before a
 * card is shown), what a rule is told ({@link io.countersign.engine.invocation.ToolInvocationContext}), the policies
 * that ask them in order ({@link io.countersign.engine.invocation.InvocationRules}) and the resolvers that name a
 * call's target. Targets, decisions, verdicts and the invocation history are values in {@code call}.
 */
package io.countersign.engine.invocation;
