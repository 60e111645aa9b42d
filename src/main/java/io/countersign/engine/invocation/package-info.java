/**
 * Invocation rules: {@link io.countersign.engine.invocation.ToolInvocationRule}s asked right before every call (and
 * the {@link io.countersign.engine.invocation.PreApprovalInvocationRule}s before a card is shown), the policies that
 * ask them in order ({@link io.countersign.engine.invocation.InvocationRules}), the targets resolvers find, and the
 * invocation history carried through pauses, which a rule may require to be complete.
 */
package io.countersign.engine.invocation;
