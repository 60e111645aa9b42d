package io.countersign.service;

import io.countersign.engine.run.RunStatus;
import java.time.Instant;

/** A run in a list of recent runs; {@code failure} is the reason of a failed run, else {@code null}. */
public record RunSummary(String runId, String agent, String initiator, RunStatus status, Instant startedAt,
                         Instant updatedAt, String prompt, String failure, boolean outcomeUnknown) {
}
