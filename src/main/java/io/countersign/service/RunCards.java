package io.countersign.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Actor;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.port.ApprovalProgress;
import io.countersign.engine.port.HostedRuns;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.state.PendingCall;
import io.countersign.engine.state.RunStatus;
import io.countersign.engine.tool.InputField;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Builds the card a person decides a waiting run on, from its paused state and the tools as the server records
 * and the local registry describe them, whether or not a server is connected in this process.
 */
final class RunCards {
    private final DecisionServers servers;
    private final AgentDirectory agents;
    private final QuorumGate quorum;
    private final HostedRuns hosted;

    RunCards(DecisionServers servers, AgentDirectory agents, QuorumGate quorum, HostedRuns hosted) {
        this.servers = Objects.requireNonNull(servers, "servers");
        this.agents = Objects.requireNonNull(agents, "agents");
        this.quorum = Objects.requireNonNull(quorum, "quorum");
        this.hosted = Objects.requireNonNull(hosted, "hosted");
    }

    /** The card of a run that waits with a paused state, as {@code viewer} sees it. */
    RunCard of(Actor viewer, StoredRun run) {
        PausedState state = run.pausedState();
        ToolFacts facts = servers.facts();
        List<RunCard.PendingCallView> pending = state.awaitingApproval().stream()
                .map(call -> pending(call, facts)).toList();
        List<RunCard.RefusedCallView> refused = state.refused().stream()
                .map(call -> new RunCard.RefusedCallView(call.index(), call.call().name(),
                        PrettyJson.of(call.call().arguments()), call.target(), call.refusal().ruleIdentifier(), call.refusal().reasonCode(), call.refusal().explanation()))
                .toList();
        RunCard.InputRequest input = state.status() == RunStatus.WAITING_FOR_INPUT ? inputRequest(state) : null;
        Optional<AgentConfiguration> configuration = agentConfiguration(run);
        boolean fourEyes = configuration.map(AgentConfiguration::fourEyes).orElse(false);
        ApprovalProgress approvals = state.status() != RunStatus.WAITING_FOR_APPROVAL ? ApprovalProgress.SINGLE
                : configuration.map(agent -> quorum.progress(agent, state)).orElse(ApprovalProgress.SINGLE);
        // Only a gateway run can be left without the one process that can carry out its decision.
        String stranded = ClaimedDecisions.hostDriven(run) && hosted.withoutGateway().contains(run.runId())
                ? HostedRuns.GATEWAY_STOPPED : null;
        return new RunCard(run.runId(), run.status(), run.agent(), run.initiator(), run.waitingSince(), run.prompt(),
                state.lastAssistantMessage(), state.digest(), pending, refused, input,
                viewer.name().equals(run.initiator()), fourEyes, approvals, stranded);
    }

    private static RunCard.PendingCallView pending(PendingCall call, ToolFacts facts) {
        String tool = call.call().name();
        return new RunCard.PendingCallView(call.index(), tool, PrettyJson.of(call.call().arguments()),
                call.target(), call.preview() == null ? List.of() : call.preview().lines(), facts.effect(tool),
                facts.remote(tool), facts.dataClass(tool), call.stale(), facts.declaration(tool),
                facts.serverClaims(tool), call.asked() == null ? null : call.asked().ruleIdentifier());
    }

    /** The form of an input pause, with what the model put into the call's arguments as hints. */
    private static RunCard.InputRequest inputRequest(PausedState state) {
        PendingCall call = state.inputCall();
        Map<String, String> guesses = new LinkedHashMap<>();
        ObjectNode arguments = call.call().arguments();
        for (InputField field : state.inputFields()) {
            JsonNode guess = arguments.get(field.name());
            if (guess != null && !guess.isNull()) {
                guesses.put(field.name(), guess.isTextual() ? guess.asText() : guess.toString());
            }
        }
        return new RunCard.InputRequest(call.index(), call.call().name(), state.inputFields(), guesses);
    }

    private Optional<AgentConfiguration> agentConfiguration(StoredRun run) {
        try {
            return Optional.of(agents.get(run.agent()));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
