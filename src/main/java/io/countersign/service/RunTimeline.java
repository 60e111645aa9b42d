package io.countersign.service;

import io.countersign.engine.state.RunStatus;
import java.time.Instant;
import java.util.List;

/**
 * One run from start to now: transcript, tool calls with outcomes, decisions and events, in one sequence in the
 * order they happened (a decision between the calls of the round it resumed and their results).
 */
public record RunTimeline(String runId, RunStatus status, String agent, String initiator, Instant startedAt,
                          String failure, List<Entry> entries) {
    public RunTimeline {
        entries = List.copyOf(entries);
    }

    /** One thing that happened; {@code time} is {@code null} for transcript entries, which carry no clock. */
    public record Entry(Kind kind, Instant time, String title, String body) {
    }

    /** The kinds of timeline entry. */
    public enum Kind {
        SYSTEM,
        USER,
        ASSISTANT,
        TOOL_CALL,
        TOOL_RESULT,
        DECISION,
        EVENT
    }
}
