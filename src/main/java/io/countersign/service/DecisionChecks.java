package io.countersign.service;

import io.countersign.engine.Actor;
import io.countersign.engine.access.ToolAccessDecision;
import io.countersign.engine.access.ToolAccessPolicy;
import io.countersign.engine.access.ToolDenialReason;
import io.countersign.engine.event.DecisionRecord;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.ServerRecords;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.run.AgentConfiguration;
import io.countersign.engine.run.ApprovalDecision;
import io.countersign.engine.run.PausedState;
import io.countersign.engine.run.PendingCall;
import io.countersign.engine.run.RunStatus;
import io.countersign.engine.tool.InputValidation;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.engine.tool.SchemaValidator;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Everything a decision must pass before it is claimed, whoever carries it out: the decider's role, a run that
 * still waits on the card they saw, verdicts or input that fit the pause, four eyes, and an approver who could run
 * each approved call themselves.
 */
record DecisionChecks(AgentDirectory agents, ToolAccessPolicy access, SchemaValidator schemas,
                      ServerRecords servers, Clock clock) {

    /** A decision that passed, ready to claim; or the answer it gets without a claim. */
    sealed interface Checked {
        record Refused(DecisionResult result) implements Checked {
        }

        record Claimable(StoredRun run, AgentConfiguration configuration, DecisionRecord decision)
                implements Checked {
        }
    }

    /** Checks a decision on the run as {@code found} read it just before. */
    Checked check(Actor decider, String runId, Optional<StoredRun> found, String digest, CardAnswer answer) {
        if (!Permissions.allows(decider, answer.operation())) {
            return refused(new DecisionResult.NotPermitted(runId, Permissions.refusal(decider, answer.operation())));
        }
        if (found.isEmpty()) {
            return refused(new DecisionResult.NotWaiting(runId, null));
        }
        StoredRun run = found.get();
        Optional<DecisionResult> early = beforeClaim(run, digest, answer.awaits());
        if (early.isPresent()) {
            return refused(early.get());
        }
        PausedState state = run.pausedState();
        boolean approval = answer.kind() == DecisionRecord.Kind.APPROVAL;
        if (approval) {
            requireVerdictsFit(state, answer.verdicts());
        } else {
            List<InputValidation.FieldError> errors = InputValidation.validate(schemas, state.inputFields(),
                    answer.input());
            if (!errors.isEmpty()) {
                return refused(new DecisionResult.InvalidInput(runId, errors));
            }
        }
        AgentConfiguration configuration = agents.get(run.agent());
        if (approval) {
            Optional<DecisionResult> refusal = approvalRefusal(runId, state, answer.verdicts(), configuration,
                    decider);
            if (refusal.isPresent()) {
                return refused(refusal.get());
            }
        }
        return new Checked.Claimable(run, configuration,
                answer.record(runId, decider.name(), clock.instant(), digest));
    }

    /**
     * A committed decision, with its counts of approved and denied calls (none for input) and the calls it let run
     * that did not go through.
     */
    static DecisionResult done(String runId, RunStatus status, DecisionRecord decision,
                               List<DecisionResult.FailedCall> failed) {
        int approved = (int) decision.verdicts().stream().filter(ApprovalDecision.CallVerdict::approved).count();
        return new DecisionResult.Done(runId, status, approved, decision.verdicts().size() - approved, failed);
    }

    /** A committed decision that waits for a process that can connect the servers its calls need. */
    static DecisionResult waitingForServers(String runId, DecisionRecord decision, List<String> servers) {
        int approved = (int) decision.verdicts().stream().filter(ApprovalDecision.CallVerdict::approved).count();
        return new DecisionResult.Done(runId, RunStatus.RUNNING, approved, decision.verdicts().size() - approved,
                List.of(), servers);
    }

    private static Checked refused(DecisionResult result) {
        return new Checked.Refused(result);
    }

    /** The answers that need no claim: a finished or other-kind run, a decision someone else made, a stale card. */
    private static Optional<DecisionResult> beforeClaim(StoredRun run, String digest, RunStatus expected) {
        if (run.status() != expected || run.pausedState() == null) {
            DecisionRecord last = run.lastDecision();
            if (last != null && last.digest().equals(digest)) {
                return Optional.of(new DecisionResult.AlreadyDecided(last));
            }
            return Optional.of(new DecisionResult.NotWaiting(run.runId(), run.status(),
                    run.status() == RunStatus.FAILED ? run.failureMessage() : null));
        }
        String current = run.pausedState().digest();
        if (!current.equals(digest)) {
            DecisionRecord last = run.lastDecision();
            if (last != null && last.digest().equals(digest)) {
                return Optional.of(new DecisionResult.AlreadyDecided(last));
            }
            return Optional.of(new DecisionResult.Stale(run.runId(), current));
        }
        return Optional.empty();
    }

    private static void requireVerdictsFit(PausedState state, List<ApprovalDecision.CallVerdict> verdicts) {
        Set<Integer> waiting = state.awaitingApproval().stream().map(PendingCall::index).collect(Collectors.toSet());
        Set<Integer> given = verdicts.stream().map(ApprovalDecision.CallVerdict::index).collect(Collectors.toSet());
        if (given.size() != verdicts.size() || !given.equals(waiting)) {
            throw new IllegalArgumentException("a decision on run " + state.runId()
                    + " needs exactly one verdict for each waiting call " + waiting.stream().sorted().toList()
                    + ", got " + verdicts.stream().map(ApprovalDecision.CallVerdict::index).toList());
        }
    }

    /** The recorded server a remote tool's name ({@code <server>.<tool>}) points at, if a record has that name. */
    private Optional<String> recordedServerOf(String toolName) {
        int dot = toolName.indexOf('.');
        if (dot <= 0) {
            return Optional.empty();
        }
        String server = toolName.substring(0, dot);
        return servers.list().stream().map(McpServerRecord::name).filter(server::equals).findFirst();
    }

    /** Four eyes, and the approver must be allowed to run every approved call themselves (gates under their name). */
    private Optional<DecisionResult> approvalRefusal(String runId, PausedState state,
                                                     List<ApprovalDecision.CallVerdict> verdicts,
                                                     AgentConfiguration configuration, Actor approver) {
        boolean approvesAny = verdicts.stream().anyMatch(ApprovalDecision.CallVerdict::approved);
        if (approvesAny && configuration.fourEyes() && state.initiatingActor().name().equals(approver.name())) {
            return Optional.of(new DecisionResult.FourEyes(runId));
        }
        AgentConfiguration round = configuration.model().equals(state.model()) ? configuration
                : configuration.withModel(state.model());
        for (ApprovalDecision.CallVerdict verdict : verdicts) {
            if (!verdict.approved()) {
                continue;
            }
            String toolName = state.calls().get(verdict.index()).call().name();
            ToolAccessDecision decision = access.check(toolName, round, approver);
            Optional<String> server = decision.denialReason() == ToolDenialReason.NOT_REGISTERED
                    ? recordedServerOf(toolName) : Optional.empty();
            if (server.isPresent()) {
                return Optional.of(new DecisionResult.ServersNotConnected(runId, List.of(server.get())));
            }
            if (!decision.permitted()) {
                return Optional.of(new DecisionResult.NotPermitted(runId, approver.name()
                        + " may not approve " + toolName + ": they could not run it themselves ("
                        + decision.denialReason().code() + ")"));
            }
        }
        return Optional.empty();
    }
}
