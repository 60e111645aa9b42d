package io.countersign.service;

import io.countersign.engine.Actor;
import io.countersign.engine.agent.RunDeadline;
import io.countersign.engine.run.WaitingRunSummary;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.tool.ToolEffect;
import java.time.Instant;
import java.util.Objects;

/**
 * One line of the inbox: a run that waits for a person, with what the list shows at a glance.
 *
 * @param firstTool     the first call that waits (approval) or the input tool
 * @param pendingCount  calls that wait for a verdict (0 for an input pause)
 * @param refusedCount  calls a rule already refused, shown on the card
 * @param hasWrite      a waiting call has a write effect
 * @param hasRemote     a waiting call goes to a remote (MCP) tool
 * @param damage        what of the run's stored state is damaged, or {@code null}: a damaged run is listed with no
 *                      tool, calls or digest, and cannot be shown or decided, only settled as failed
 * @param deadline      the card's deadline, or {@code null} when it waits without one
 */
public record WaitingRun(String runId, RunStatus status, String agent, String initiator, Instant waitingSince,
                         String prompt, String firstTool, int pendingCount, int refusedCount, boolean hasWrite,
                         boolean hasRemote, String digest, String damage, RunDeadline deadline) {
    public WaitingRun {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(waitingSince, "waitingSince");
    }

    /** A line of a run without a deadline. */
    public WaitingRun(String runId, RunStatus status, String agent, String initiator, Instant waitingSince,
                      String prompt, String firstTool, int pendingCount, int refusedCount, boolean hasWrite,
                      boolean hasRemote, String digest, String damage) {
        this(runId, status, agent, initiator, waitingSince, prompt, firstTool, pendingCount, refusedCount, hasWrite,
                hasRemote, digest, damage, null);
    }

    /** The same line with this deadline. */
    public WaitingRun withDeadline(RunDeadline due) {
        return new WaitingRun(runId, status, agent, initiator, waitingSince, prompt, firstTool, pendingCount,
                refusedCount, hasWrite, hasRemote, digest, damage, due);
    }

    /** The card is escalated and the actor holds the role it was escalated to. */
    public boolean escalatedTo(Actor actor) {
        return deadline != null && deadline.escalated() && actor.roles().contains(deadline.escalationRole());
    }

    /** A line of a run that is not damaged. */
    public WaitingRun(String runId, RunStatus status, String agent, String initiator, Instant waitingSince,
                      String prompt, String firstTool, int pendingCount, int refusedCount, boolean hasWrite,
                      boolean hasRemote, String digest) {
        this(runId, status, agent, initiator, waitingSince, prompt, firstTool, pendingCount, refusedCount, hasWrite,
                hasRemote, digest, null);
    }

    /** The inbox line of a stored waiting run, its tools' effects and remoteness read from the facts. */
    static WaitingRun of(WaitingRunSummary run, ToolFacts facts) {
        if (run.damage() != null) {
            return WaitingRun.damaged(run.runId(), run.status(), run.agent(), run.initiator(), run.waitingSince(),
                    run.prompt(), run.damage()).withDeadline(run.deadline());
        }
        boolean hasWrite = run.waitingTools().stream().anyMatch(tool -> facts.effect(tool) == ToolEffect.WRITE);
        boolean hasRemote = run.waitingTools().stream().anyMatch(facts::remote);
        return new WaitingRun(run.runId(), run.status(), run.agent(), run.initiator(), run.waitingSince(),
                run.prompt(), run.waitingTools().get(0),
                run.status() == RunStatus.WAITING_FOR_APPROVAL ? run.waitingTools().size() : 0, run.refusedCount(),
                hasWrite, hasRemote, run.digest(), null, run.deadline());
    }

    /** A waiting run whose stored state does not decode; see {@link #damage()}. */
    public static WaitingRun damaged(String runId, RunStatus status, String agent, String initiator,
                                     Instant waitingSince, String prompt, String damage) {
        return new WaitingRun(runId, status, agent, initiator, waitingSince, prompt, null, 0, 0, false, false, null,
                Objects.requireNonNull(damage, "damage"));
    }

    public boolean damaged() {
        return damage != null;
    }
}
