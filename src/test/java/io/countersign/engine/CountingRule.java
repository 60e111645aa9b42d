package io.countersign.engine;

import io.countersign.engine.call.ToolInvocationDecision;
import io.countersign.engine.invocation.PreApprovalInvocationRule;
import io.countersign.engine.invocation.ToolInvocationContext;
import io.countersign.engine.invocation.ToolInvocationRule;
import java.util.function.Function;

/** A rule for tests: answers as told, and remembers how often it was asked and what it saw last. */
class CountingRule implements ToolInvocationRule {
    private final String identifier;
    private final Function<ToolInvocationContext, ToolInvocationDecision> answer;
    private final boolean requiresCompleteHistory;
    private int calls;
    private ToolInvocationContext lastContext;

    CountingRule(String identifier, boolean requiresCompleteHistory,
                 Function<ToolInvocationContext, ToolInvocationDecision> answer) {
        this.identifier = identifier;
        this.requiresCompleteHistory = requiresCompleteHistory;
        this.answer = answer;
    }

    static CountingRule answering(String identifier, Function<ToolInvocationContext, ToolInvocationDecision> answer) {
        return new CountingRule(identifier, false, answer);
    }

    static CountingRule allowing(String identifier) {
        return answering(identifier, context -> ToolInvocationDecision.allow());
    }

    static CountingRule denying(String identifier, String reasonCode) {
        return answering(identifier, context -> ToolInvocationDecision.deny(reasonCode));
    }

    static CountingRule throwing(String identifier, String message) {
        return answering(identifier, context -> {
            throw new IllegalStateException(message);
        });
    }

    /** The same answers, from a rule that is also asked before the approval card. */
    static Marked marked(String identifier, Function<ToolInvocationContext, ToolInvocationDecision> answer) {
        return new Marked(identifier, answer);
    }

    @Override
    public String identifier() {
        return identifier;
    }

    @Override
    public boolean requiresCompleteHistory() {
        return requiresCompleteHistory;
    }

    @Override
    public ToolInvocationDecision decide(ToolInvocationContext context) {
        calls++;
        lastContext = context;
        return answer.apply(context);
    }

    int calls() {
        return calls;
    }

    ToolInvocationContext lastContext() {
        return lastContext;
    }

    static final class Marked extends CountingRule implements PreApprovalInvocationRule {
        Marked(String identifier, Function<ToolInvocationContext, ToolInvocationDecision> answer) {
            super(identifier, false, answer);
        }
    }
}
