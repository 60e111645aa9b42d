package io.countersign.engine.port;

import io.countersign.engine.Actor;
import io.countersign.engine.agent.RunDeadline;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.RunStatus;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * A waiting run as the inbox lists it, without its paused state: who started it and when it began to wait, the
 * names of the tools it waits on in call order (the calls awaiting approval, or the one input form), how many of
 * its calls a rule refused, and the digest of its card. A run whose stored summary or state does not decode is
 * listed all the same, with its {@code damage} said and no tools or digest, so that it hides no other run, and can
 * only be settled as failed. Its {@code deadline} is {@code null} when it waits without one.
 *
 * @param hasWrite  a waiting call has a write effect
 * @param hasRemote a waiting call goes to a remote (MCP) tool; both are facts of the tools, not of the store,
 *                  and false until {@link #withToolFacts} says them
 */
public record WaitingRun(String runId, RunStatus status, String agent, String initiator, String prompt,
                         Instant waitingSince, List<String> waitingTools, int refusedCount, String digest,
                         String damage, RunDeadline deadline, boolean hasWrite, boolean hasRemote) {
    public WaitingRun {
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

    /** A waiting run as the store lists it, without a deadline. */
    public WaitingRun(String runId, RunStatus status, String agent, String initiator, String prompt,
                      Instant waitingSince, List<String> waitingTools, int refusedCount, String digest,
                      String damage) {
        this(runId, status, agent, initiator, prompt, waitingSince, waitingTools, refusedCount, digest, damage, null,
                false, false);
    }

    /** A waiting run as the store lists it, neither damaged nor with a deadline. */
    public WaitingRun(String runId, RunStatus status, String agent, String initiator, String prompt,
                      Instant waitingSince, List<String> waitingTools, int refusedCount, String digest) {
        this(runId, status, agent, initiator, prompt, waitingSince, waitingTools, refusedCount, digest, null);
    }

    /** A waiting run whose stored summary or paused state does not decode: listed, with what is damaged. */
    public static WaitingRun damaged(String runId, RunStatus status, String agent, String initiator, String prompt,
                                     Instant waitingSince, String damage) {
        return new WaitingRun(runId, status, agent, initiator, prompt, waitingSince, List.of(), 0, null,
                Objects.requireNonNull(damage, "damage"));
    }

    /** The line of a stored run that waits, read from its paused state. */
    public static WaitingRun of(StoredRun run) {
        if (run.pausedState() == null) {
            throw new IllegalArgumentException("run " + run.runId() + " has no paused state to summarize");
        }
        return of(run.runId(), run.status(), run.agent(), run.initiator(), run.prompt(), run.waitingSince(),
                run.pausedState());
    }

    /** The line of a waiting run, the tools, the refusals and the digest read from its paused state. */
    public static WaitingRun of(String runId, RunStatus status, String agent, String initiator, String prompt,
                                Instant waitingSince, PausedState state) {
        return new WaitingRun(runId, status, agent, initiator, prompt, waitingSince, state.waitingToolNames(),
                state.refused().size(), state.digest());
    }

    /** The same line with this deadline. */
    public WaitingRun withDeadline(RunDeadline due) {
        return new WaitingRun(runId, status, agent, initiator, prompt, waitingSince, waitingTools, refusedCount,
                digest, damage, due, hasWrite, hasRemote);
    }

    /** The same line with what its waiting tools do: whether one of them writes, whether one is remote. */
    public WaitingRun withToolFacts(Predicate<String> writes, Predicate<String> remote) {
        return new WaitingRun(runId, status, agent, initiator, prompt, waitingSince, waitingTools, refusedCount,
                digest, damage, deadline, waitingTools.stream().anyMatch(writes),
                waitingTools.stream().anyMatch(remote));
    }

    /** The first call that waits (approval) or the input tool; {@code null} for a damaged run. */
    public String firstTool() {
        return waitingTools.isEmpty() ? null : waitingTools.get(0);
    }

    /** The calls that wait for a verdict: none for an input pause. */
    public int pendingCount() {
        return status == RunStatus.WAITING_FOR_APPROVAL ? waitingTools.size() : 0;
    }

    public boolean damaged() {
        return damage != null;
    }

    /** The card is escalated and the actor holds the role it was escalated to. */
    public boolean escalatedTo(Actor actor) {
        return deadline != null && deadline.escalated() && actor.roles().contains(deadline.escalationRole());
    }
}
