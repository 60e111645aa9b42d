package io.countersign.service;

import io.countersign.engine.run.RunStatus;
import io.countersign.engine.tool.InputValidation;
import java.time.Instant;
import java.util.List;

/** What became of a decision on a card (approval verdicts or typed input). Every case is an expected answer. */
public sealed interface DecisionResult {

    /**
     * The decision was committed and the run resumed; {@code status} is where it stands now. {@code failed} lists
     * the calls the decision let run that failed or were refused all the same, so nobody reads this as a success.
     * {@code waitingForServers} names the MCP servers its calls need that did not connect in this process: then
     * nothing ran, the decision stays committed and the run {@code running}, and the next process that can
     * connect them carries it out.
     */
    record Done(String runId, RunStatus status, int approved, int denied, List<FailedCall> failed,
                List<String> waitingForServers) implements DecisionResult {
        public Done {
            failed = List.copyOf(failed);
            waitingForServers = List.copyOf(waitingForServers);
        }

        /** A decision that was carried out here. */
        public Done(String runId, RunStatus status, int approved, int denied, List<FailedCall> failed) {
            this(runId, status, approved, denied, failed, List.of());
        }

        /** A decision whose calls all went through, or that was queued for a worker to carry out. */
        public Done(String runId, RunStatus status, int approved, int denied) {
            this(runId, status, approved, denied, List.of());
        }
    }

    /**
     * A call that was approved or given its input and still did not go through.
     *
     * @param refused whether it was refused before it ran (nothing was executed) rather than failing as it ran
     * @param error   what the model was told, without the leading "Error: "
     */
    record FailedCall(String tool, boolean refused, String error) {
    }

    /**
     * The card needs approvals from more people than one, and this person's approval is counted: nothing executed,
     * and the card waits for the others in {@code progress}. Any denial still ends it.
     */
    record PartlyApproved(String runId, ApprovalProgress progress) implements DecisionResult {
    }

    /** The card changed since the person saw it; nothing executed. Reload and decide again. */
    record Stale(String runId, String currentDigest) implements DecisionResult {
    }

    /**
     * Someone else decided first; nothing executed on this decision. {@code approved} and {@code denied} count the
     * winner's verdicts, both 0 when the winner sent typed input.
     */
    record AlreadyDecided(String runId, String decidedBy, Instant decidedAt, String summary, int approved,
                          int denied) implements DecisionResult {
        /** True when no person decided: the run's MCP host cancelled the call the card waited on. */
        public boolean cancelledByHost() {
            return HostRunDecisions.HOST_ACTOR.equals(decidedBy);
        }
    }

    /** The person started this run and its agent requires someone else to approve; they may deny. */
    record FourEyes(String runId) implements DecisionResult {
    }

    /** The person may not take this decision, for the given reason (a role, or a write they could not run). */
    record NotPermitted(String runId, String reason) implements DecisionResult {
    }

    /** The typed input does not fit the form; the run still waits. */
    record InvalidInput(String runId, List<InputValidation.FieldError> errors) implements DecisionResult {
        public InvalidInput {
            errors = List.copyOf(errors);
        }
    }

    /**
     * MCP servers whose tools the decided calls need did not connect in this process, in name order: nothing was
     * decided, and the card still waits.
     */
    record ServersNotConnected(String runId, List<String> servers) implements DecisionResult {
        public ServersNotConnected {
            servers = List.copyOf(servers);
        }
    }

    /**
     * A person's arguments for call {@code index} did not pass: they do not fit the call ({@code rule} is
     * {@code null}) or a pre-approval rule refused the call as edited, with its explanation. Nothing was decided;
     * the card still waits.
     */
    record EditRefused(String runId, int index, String rule, String explanation) implements DecisionResult {
    }

    /**
     * The run does not wait for this kind of decision (it finished, or waits for the other kind); {@code failure}
     * is why a failed run ended, null otherwise.
     */
    record NotWaiting(String runId, RunStatus status, String failure) implements DecisionResult {
        public NotWaiting(String runId, RunStatus status) {
            this(runId, status, null);
        }
    }
}
