package io.countersign.service;

/**
 * What a deadline sweep did with one overdue run.
 *
 * @param detail why the fallback did not apply ({@link Outcome#NOT_APPLIED}), else {@code null}
 */
public record DeadlineApplied(String runId, Outcome outcome, String detail) {
    /** The fallback this process applied, or why it applied none. */
    public enum Outcome {
        /** The waiting calls were declined; the model continued from the refusals. */
        DENIED,
        /** The run ended as cancelled. */
        CANCELLED,
        /** The card was escalated and its deadline moved once. */
        ESCALATED,
        /** Someone decided or extended it first, or another process applied the fallback: nothing done here. */
        LOST,
        /** The fallback could not apply (the agent is gone, the state is damaged); the run still waits. */
        NOT_APPLIED
    }
}
