package io.countersign.engine.port;

import io.countersign.engine.decision.Decision;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.tool.InputValidation;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What became of a decision on a card (approval verdicts or typed input). Every case is an expected answer: it was
 * committed ({@link Done}), counted towards the card's approvals ({@link PartlyApproved}), or refused for one of
 * the {@link Refusal}s, which every stage of a decision answers with alike: its checks, the count of approvals
 * ({@link ApprovalQuorums.Tally}) and the store's claim ({@link RunClaims.ClaimResult}).
 */
public sealed interface DecisionResult permits DecisionResult.Done, DecisionResult.PartlyApproved,
        DecisionResult.Refusal {

    String runId();

    /** Why nothing was decided; the card still waits, unless the refusal says it ended or someone else won. */
    sealed interface Refusal extends DecisionResult, RunClaims.ClaimResult, ApprovalQuorums.Tally
            permits Stale, AlreadyDecided, NotWaiting, FourEyes, NotPermitted, InvalidInput, ServersNotConnected,
            EditRefused {
    }

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
    record PartlyApproved(String runId, ApprovalProgress progress) implements DecisionResult, ApprovalQuorums.Tally {
    }

    /** The card changed since the person saw it; nothing executed. Reload and decide again. */
    record Stale(String runId, String currentDigest) implements Refusal {
    }

    /** Someone else decided first ({@code winner}); nothing executed on this decision. */
    record AlreadyDecided(Decision winner) implements Refusal {
        /** Who ends a card whose MCP host cancelled the call it waits on. */
        public static final String HOST_ACTOR = "host";

        @Override
        public String runId() {
            return winner.runId();
        }

        public String decidedBy() {
            return winner.decidedBy();
        }

        public Instant decidedAt() {
            return winner.decidedAt();
        }

        public String summary() {
            return winner.summary();
        }

        /** The winner's approved calls; 0 when the winner sent typed input. */
        public int approved() {
            return winner.approved();
        }

        /** The winner's denied calls; 0 when the winner sent typed input. */
        public int denied() {
            return winner.denied();
        }

        /** True when no person decided: the run's MCP host cancelled the call the card waited on. */
        public boolean cancelledByHost() {
            return HOST_ACTOR.equals(winner.decidedBy());
        }
    }

    /** The person started this run and its agent requires someone else to approve; they may deny. */
    record FourEyes(String runId) implements Refusal {
    }

    /** The person may not take this decision, for the given reason (a role, or a write they could not run). */
    record NotPermitted(String runId, String reason) implements Refusal {
        /** A person who approved a card that needs several people approves it again. */
        public static NotPermitted approvedAlready(String runId, String approver, Instant earlier, int required) {
            return new NotPermitted(runId, approver + " approved this card already at " + earlier + "; it needs "
                    + required + " approvals from distinct people, so someone else must approve it");
        }

        /** An approval that does not agree with one counted before it; approvals add up only when they agree. */
        public static NotPermitted otherVerdicts(String runId, ApprovalQuorums.Approval earlier) {
            String approved = earlier.verdicts().stream().filter(Decision.CallVerdict::approved)
                    .map(verdict -> Integer.toString(verdict.index())).collect(Collectors.joining(", ", "[", "]"));
            return new NotPermitted(runId, earlier.approvedBy() + " approved calls " + approved + " of this card,"
                    + " and approvals add up only when they agree: approve calls " + approved + " too, or deny");
        }
    }

    /** The typed input does not fit the form; the run still waits. */
    record InvalidInput(String runId, List<InputValidation.FieldError> errors) implements Refusal {
        public InvalidInput {
            errors = List.copyOf(errors);
        }
    }

    /**
     * MCP servers whose tools the decided calls need did not connect in this process, in name order: nothing was
     * decided, and the card still waits.
     */
    record ServersNotConnected(String runId, List<String> servers) implements Refusal {
        public ServersNotConnected {
            servers = List.copyOf(servers);
        }
    }

    /**
     * A person's arguments for call {@code index} did not pass: they do not fit the call ({@code rule} is
     * {@code null}) or a pre-approval rule refused the call as edited, with its explanation. Nothing was decided;
     * the card still waits.
     */
    record EditRefused(String runId, int index, String rule, String explanation) implements Refusal {
    }

    /**
     * The run does not wait for this kind of decision (it finished, or waits for the other kind); {@code failure}
     * is why a failed run ended, null otherwise.
     */
    record NotWaiting(String runId, RunStatus status, String failure) implements Refusal {
        public NotWaiting(String runId, RunStatus status) {
            this(runId, status, null);
        }
    }
}
