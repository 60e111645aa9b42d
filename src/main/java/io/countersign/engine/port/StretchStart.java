package io.countersign.engine.port;

import java.util.Objects;

/** What a trace needs of a stretch's start: the run, its agent, and whether the stretch resumes a pause. */
public record StretchStart(String runId, String agent, boolean resumed) {
    public StretchStart {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(agent, "agent");
    }
}
