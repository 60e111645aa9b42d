package io.countersign.service;

import io.countersign.engine.agent.RunDeadline;

/** The answer to a person's Extend of a card's deadline. */
public sealed interface DeadlineExtension {
    /** The deadline moved by its span; it cannot be extended again. */
    record Extended(String runId, RunDeadline deadline) implements DeadlineExtension {
    }

    /** Nothing changed, for the reason given (extended before, no deadline, not waiting). */
    record Refused(String runId, String reason) implements DeadlineExtension {
    }
}
