package io.countersign.engine.invocation;

import java.util.List;

/**
 * Rules that change while the process runs (the declarative rules an admin saves), asked after the fixed ones by
 * {@link InvocationRules}. Each read gives the rules in force now.
 */
@FunctionalInterface
public interface LiveRules {
    LiveRules NONE = () -> Snapshot.EMPTY;

    Snapshot current();

    /**
     * The rules in force at one moment: every rule asked before a call executes, the pre-approval ones among them,
     * and the asks for a person.
     */
    record Snapshot(List<ToolInvocationRule> rules, List<ToolInvocationRule> preApprovalRules, ApprovalAsks asks) {
        public static final Snapshot EMPTY = new Snapshot(List.of(), List.of(), ApprovalAsks.NONE);

        public Snapshot {
            rules = List.copyOf(rules);
            preApprovalRules = List.copyOf(preApprovalRules);
        }
    }
}
