package io.countersign.service;

import io.countersign.engine.Actor;
import io.countersign.engine.access.ToolAccessDecision;
import io.countersign.engine.access.ToolAccessPolicy;
import io.countersign.engine.access.ToolDenialReason;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.decision.Decision;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.ServerRecords;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.PendingCall;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.tool.InputValidation;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.engine.tool.SchemaValidator;
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
                      ServerRecords servers) {

    /** A decision that passed, ready to claim; or the answer it gets without a claim. */
    sealed interface Checked {
        record Refused(DecisionResult result) implements Checked {
        }

        record Claimable(StoredRun run, AgentConfiguration configuration, Decision decision)
                implements Checked {
        }
    }

    /** Checks a decision on the run as {@code found} read it just before. */
    Checked check(Actor decider, Optional<StoredRun> found, Decision decision) {
        String runId = decision.runId();
        boolean approval = decision instanceof Decision.Approval;
        Operation operation = approval ? Operation.DECIDE : Operation.SUBMIT_INPUT;
        if (!Permissions.allows(decider, operation)) {
            return refused(new DecisionResult.NotPermitted(runId, Permissions.refusal(decider, operation)));
        }
        if (found.isEmpty()) {
            return refused(new DecisionResult.NotWaiting(runId, null));
        }
        StoredRun run = found.get();
        Optional<DecisionResult> early = beforeClaim(run, decision.digest(),
                approval ? RunStatus.WAITING_FOR_APPROVAL : RunStatus.WAITING_FOR_INPUT);
        if (early.isPresent()) {
            return refused(early.get());
        }
        PausedState state = run.pausedState();
        if (decision instanceof Decision.Approval decided) {
            requireVerdictsFit(state, decided.verdicts());
        } else {
            List<InputValidation.FieldError> errors = InputValidation.validate(schemas, state.inputFields(),
                    ((Decision.Input) decision).values());
            if (!errors.isEmpty()) {
                return refused(new DecisionResult.InvalidInput(runId, errors));
            }
        }
        AgentConfiguration configuration = agents.get(run.agent());
        if (decision instanceof Decision.Approval decided) {
            Optional<DecisionResult> refusal = approvalRefusal(runId, state, decided.verdicts(), configuration,
                decider);
            if (refusal.isPresent()) {
                return refused(refusal.get());
            }
        }
        return new Checked.Claimable(run, configuration, decision);
    }

    private static Checked refused(DecisionResult result) {
        return new Checked.Refused(result);
    }

    /** The answers that need no claim: a finished or other-kind run, a decision someone else made, a stale card. */
    private static Optional<DecisionResult> beforeClaim(StoredRun run, String digest, RunStatus expected) {
        if (run.status() != expected || run.pausedState() == null) {
            Decision last = run.lastDecision();
            if (last != null && last.digest().equals(digest)) {
                return Optional.of(new DecisionResult.AlreadyDecided(last));
            }
            return Optional.of(new DecisionResult.NotWaiting(run.runId(), run.status(),
                    run.status() == RunStatus.FAILED ? run.failureMessage() : null));
        }
        String current = run.pausedState().digest();
        if (!current.equals(digest)) {
            Decision last = run.lastDecision();
            if (last != null && last.digest().equals(digest)) {
                return Optional.of(new DecisionResult.AlreadyDecided(last));
            }
            return Optional.of(new DecisionResult.Stale(run.runId(), current));
        }
        return Optional.empty();
    }

    private static void requireVerdictsFit(PausedState state, List<Decision.CallVerdict> verdicts) {
        Set<Integer> waiting = state.awaitingApproval().stream().map(PendingCall::index).collect(Collectors.toSet());
        Set<Integer> given = verdicts.stream().map(Decision.CallVerdict::index).collect(Collectors.toSet());
        if (given.size() != verdicts.size() || !given.equals(waiting)) {
            throw new IllegalArgumentException("a decision on run " + state.runId()
                    + " needs exactly one verdict for each waiting call " + waiting.stream().sorted().toList()
                    + ", got " + verdicts.stream().map(Decision.CallVerdict::index).toList());
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
                                                     List<Decision.CallVerdict> verdicts,
                                                     AgentConfiguration configuration, Actor approver) {
        boolean approvesAny = verdicts.stream().anyMatch(Decision.CallVerdict::approved);
        if (approvesAny && configuration.fourEyes() && state.initiatingActor().name().equals(approver.name())) {
            return Optional.of(new DecisionResult.FourEyes(runId));
        }
        AgentConfiguration round = configuration.model().equals(state.model()) ? configuration
                : configuration.withModel(state.model());
        for (Decision.CallVerdict verdict : verdicts) {
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
