package io.countersign.engine.run;

import io.countersign.engine.agent.RunDeadline;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.RunStatus;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A waiting run as an inbox lists it, without its paused state: who started it and when it began to wait, the
 * names of the tools it waits on in call order (the calls awaiting approval, or the one input form), how many of
 * its calls a rule refused, and the digest of its card. A run whose stored summary or state does not decode is
 * listed all the same, with its {@code damage} said and no tools or digest, so that it hides no other run. Its
 * {@code deadline} is {@code null} when it waits without one.
 */
public record WaitingRunSummary(String runId, RunStatus status, String agent, String initiator, String prompt,
                                Instant waitingSince, List<String> waitingTools, int refusedCount, String digest,
                                String damage, RunDeadline deadline) {
    public WaitingRunSummary {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(waitingSince, "waitingSince");
        if (!status.waiting()) {
            throw new IllegalArgumentException("run " + runId + " is " + status.code() + ", not waiting");
        }
        waitingTools = List.copyOf(waitingTools);
        if (damage == null) {
            Objects.requireNonNull(digest, "digest");
            if (waitingTools.isEmpty()) {
                throw new IllegalArgumentException("waiting run " + runId + " waits on no tool");
            }
        }
        if (refusedCount < 0) {
            throw new IllegalArgumentException("run " + runId + " cannot have " + refusedCount + " refused calls");
        }
    }

    /** The summary of a waiting run without a deadline. */
    public WaitingRunSummary(String runId, RunStatus status, String agent, String initiator, String prompt,
                             Instant waitingSince, List<String> waitingTools, int refusedCount, String digest,
                             String damage) {
        this(runId, status, agent, initiator, prompt, waitingSince, waitingTools, refusedCount, digest, damage, null);
    }

    /** The same summary with this deadline. */
    public WaitingRunSummary withDeadline(RunDeadline due) {
        return new WaitingRunSummary(runId, status, agent, initiator, prompt, waitingSince, waitingTools, refusedCount,
                digest, damage, due);
    }

    /** The summary of a waiting run that is not damaged. */
    public WaitingRunSummary(String runId, RunStatus status, String agent, String initiator, String prompt,
                             Instant waitingSince, List<String> waitingTools, int refusedCount, String digest) {
        this(runId, status, agent, initiator, prompt, waitingSince, waitingTools, refusedCount, digest, null);
    }

    /** A waiting run whose stored summary or paused state does not decode: listed, with what is damaged. */
    public static WaitingRunSummary damaged(String runId, RunStatus status, String agent, String initiator,
                                            String prompt, Instant waitingSince, String damage) {
        return new WaitingRunSummary(runId, status, agent, initiator, prompt, waitingSince, List.of(), 0, null,
                Objects.requireNonNull(damage, "damage"));
    }

    /** The summary of a stored run that waits, read from its paused state. */
    public static WaitingRunSummary of(StoredRun run) {
        if (run.pausedState() == null) {
            throw new IllegalArgumentException("run " + run.runId() + " has no paused state to summarize");
        }
        return of(run.runId(), run.status(), run.agent(), run.initiator(), run.prompt(), run.waitingSince(),
                run.pausedState());
    }

    /** The summary of a waiting run, the tools, the refusals and the digest read from its paused state. */
    public static WaitingRunSummary of(String runId, RunStatus status, String agent, String initiator, String prompt,
                                       Instant waitingSince, PausedState state) {
        return new WaitingRunSummary(runId, status, agent, initiator, prompt, waitingSince, state.waitingToolNames(),
                state.refused().size(), state.digest());
    }
}
