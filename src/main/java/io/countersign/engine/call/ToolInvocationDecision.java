package io.countersign.engine.call;

import io.countersign.engine.Names;

/**
 * A rule's answer for one call. A denial carries a reason code ({@code [a-z][a-z0-9_.-]*}) and optionally an
 * explanation: one sentence for the person behind the run, in their language. The explanation is passed to
 * the model and shown on the card; it is never written to an event, the history or a log.
 */
public record ToolInvocationDecision(boolean allowed, String reasonCode, String explanation) {
    private static final ToolInvocationDecision ALLOW = new ToolInvocationDecision(true, null, null);

    public ToolInvocationDecision {
        if (allowed) {
            if (reasonCode != null || explanation != null) {
                throw new IllegalArgumentException("an allowing decision carries no reason or explanation");
            }
        } else {
            Names.requireCode(reasonCode, "reason code");
            if (explanation != null && explanation.isBlank()) {
                explanation = null;
            }
        }
    }

    public static ToolInvocationDecision allow() {
        return ALLOW;
    }

    public static ToolInvocationDecision deny(String reasonCode) {
        return new ToolInvocationDecision(false, reasonCode, null);
    }

    public static ToolInvocationDecision deny(String reasonCode, String explanation) {
        return new ToolInvocationDecision(false, reasonCode, explanation);
    }

    public boolean denied() {
        return !allowed;
    }

    @Override
    public String toString() {
        // The explanation stays out of toString so that a logged decision never carries it.
        return allowed ? "ToolInvocationDecision[allow]" : "ToolInvocationDecision[deny " + reasonCode + "]";
    }
}
