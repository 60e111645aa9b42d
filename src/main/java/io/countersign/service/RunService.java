package io.countersign.service;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Actor;
import io.countersign.engine.agent.RunDeadline;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.RunSummary;
import io.countersign.engine.run.EditCheck;
import io.countersign.engine.port.WaitingRun;
import java.util.List;
import java.util.Optional;

/**
 * The operator's use cases, shared by the console and the command line. Every method checks the acting user's
 * roles and throws {@link NotPermittedException} when they do not allow it; decisions answer with a
 * {@link DecisionResult} instead, since a refused decision is an expected outcome.
 */
public interface RunService {

    /** The agent configurations a run can be started with. */
    List<AgentSummary> agents(Actor actor);

    /** Starts a run and drives it to its first pause or end. Operators and admins. */
    StartedRun start(Actor actor, String agent, String prompt, boolean unattended);

    /** Every waiting run, oldest first. Operators, supervisors (read only) and admins. */
    List<WaitingRun> inbox(Actor actor);

    /** Every waiting run in the given order for this viewer (escalated cards of their role first). */
    default List<WaitingRun> inbox(Actor actor, InboxOrder order) {
        return order.sorted(inbox(actor), actor);
    }

    /** The deadline of a waiting run's card; empty when it waits without one. Like {@link #card}. */
    default Optional<RunDeadline> deadline(Actor actor, String runId) {
        Permissions.require(actor, Operation.VIEW_INBOX);
        return Optional.empty();
    }

    /**
     * Moves a waiting card's deadline once by its configured span, recording who and when; a second Extend is
     * refused. Operators and admins. By default every card waits without a deadline.
     */
    default DeadlineExtension extend(Actor actor, String runId) {
        Permissions.require(actor, Operation.EXTEND_DEADLINE);
        return new DeadlineExtension.Refused(runId, "run " + runId + " waits without a deadline");
    }

    /**
     * The runs whose committed decision waits for a process that can connect the MCP servers its calls need,
     * oldest first. Operators, supervisors and admins, like the inbox. By default none: only a service over a
     * store leaves decisions for other processes.
     */
    default List<DecidedRun> waitingForServers(Actor actor) {
        Permissions.require(actor, Operation.VIEW_INBOX);
        return List.of();
    }

    /**
     * The runs stopped with a call whose outcome is unknown, oldest first: each is for a person to settle
     * ({@code settle --retry} or {@code --fail}). Operators, supervisors and admins, like the inbox. By default none.
     */
    default List<RunSummary> toSettle(Actor actor) {
        Permissions.require(actor, Operation.VIEW_INBOX);
        return List.of();
    }

    /** The most recently updated runs, newest first, whatever their status. Any role that may see timelines. */
    List<RunSummary> recent(Actor actor, int limit);

    /** The card of a waiting run, or empty when the run does not wait (any more). */
    Optional<RunCard> card(Actor actor, String runId);

    /**
     * Decides an approval card. The decision is committed before this returns; exactly one of several
     * concurrent deciders wins, the others get {@link DecisionResult.AlreadyDecided}.
     */
    default DecisionResult decide(Actor actor, String runId, String digest,
                                  List<Decision.CallVerdict> verdicts) {
        return decide(actor, runId, digest, verdicts, null);
    }

    /**
     * Decides an approval card as {@link #decide(Actor, String, String, List)} does; a verdict may carry a person's
     * arguments in place of the model's ({@link Decision.CallVerdict#approveEdited}), which are checked at
     * once (a refusal is {@link DecisionResult.EditRefused} and nothing is decided). The digest is that of the card
     * as shown before the edit; the edit is part of the decision. With an {@code allowance} ({@code null} for none)
     * each approved call, as it finally is, also becomes a standing grant once the decision is committed.
     */
    DecisionResult decide(Actor actor, String runId, String digest, List<Decision.CallVerdict> verdicts,
                          Allowance allowance);

    /**
     * Checks a person's arguments for a waiting call before they approve it, as the decision will: the tool's
     * schema, the size, the pre-approval rules; with the preview of the call as edited. Nothing is recorded.
     * Operators and admins.
     */
    EditCheck checkEdit(Actor actor, String runId, int index, ObjectNode arguments);

    /** The JSON Schema of a tool's arguments, for the form that edits them; empty when the tool is not known here. */
    Optional<ObjectNode> argumentSchema(Actor actor, String tool);

    /** Submits typed input for an input card; invalid values leave the run waiting. */
    DecisionResult submitInput(Actor actor, String runId, String digest, ObjectNode values);


    /** The run's timeline. Any role. */
    RunTimeline timeline(Actor actor, String runId);

    /** Listens for runs that start waiting, are decided or finish; the listener runs on a background thread. */
    AutoCloseable onChange(Runnable listener);
}
