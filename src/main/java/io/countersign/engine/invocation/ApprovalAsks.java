package io.countersign.engine.invocation;

/** Asks the declarative {@code ask} rules about a call, before its card and again before it runs unapproved. */
@FunctionalInterface
public interface ApprovalAsks {
    ApprovalAsks NONE = context -> ApprovalAsk.NONE;

    /** {@code context.target()} is ignored: the asks resolve the target as the invocation policy does. */
    ApprovalAsk ask(ToolInvocationContext context);
}
