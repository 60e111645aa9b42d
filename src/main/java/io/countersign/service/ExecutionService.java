package io.countersign.service;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Actor;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.port.DecisionResult;
import java.util.List;
import java.util.function.Consumer;

/**
 * How runs execute beyond the operator's own process: queued for workers that share the store, decisions left
 * to a worker to carry out, what a run's calls did, and settling a run whose outcome a crash made unknown.
 * Every method checks the acting user's roles and throws {@link NotPermittedException} when they do not allow
 * it, except the decisions, which answer {@link DecisionResult.NotPermitted} as {@link RunService} does.
 */
public interface ExecutionService {

    /** Records a run as queued; a worker runs it. Operators and admins. @return the run, status queued */
    StartedRun enqueue(Actor actor, String agent, String prompt, boolean unattended);

    /**
     * Decides an approval card exactly as {@link RunService#decide} does (the same checks, the same atomic
     * claim), but leaves carrying the decision out to a worker: a committed decision answers
     * {@link DecisionResult.Done} with status queued.
     */
    DecisionResult decideForWorker(Actor actor, String runId, String digest,
                                   List<Decision.CallVerdict> verdicts);

    /** Submits typed input as {@link RunService#submitInput} does, leaving the resumption to a worker. */
    DecisionResult submitInputForWorker(Actor actor, String runId, String digest, ObjectNode values);

    /** Where the run stands and what its calls did. Any role that may see timelines. */
    RunExecution execution(Actor actor, String runId);

    /**
     * Settles a run flagged "outcome unknown" after a crash: with {@code retry} it waits again on the card it was
     * decided from (approving runs the calls again); without, it ends as failed. Operators and admins.
     *
     * @return {@link DecisionResult.Done} with the run's new status; {@link DecisionResult.NotWaiting} when the
     *         run has no call whose outcome is unknown, or (with its failure) when a retry found the gateway of a
     *         gateway run stopped and ended the run as {@code gateway_stopped} instead
     * @throws IllegalArgumentException for an unknown run, or a retry of a run that never paused
     */
    DecisionResult settleUnknownOutcome(Actor actor, String runId, boolean retry);

    /**
     * A worker that executes queued runs and carries out decisions left to workers, each under the identity of
     * the run's initiator. It starts when {@link RunWorker#run()} is called. Operators and admins.
     *
     * @param progress told about every run the worker finishes a stretch of or recovers, on the worker's threads
     */
    RunWorker worker(Actor actor, RunWorker.Options options, Consumer<RunWorker.Progress> progress);
}
