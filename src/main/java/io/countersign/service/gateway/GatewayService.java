package io.countersign.service.gateway;

import io.countersign.engine.Actor;
import io.countersign.engine.access.ToolAccessDecision;
import io.countersign.engine.access.ToolAccessPolicy;
import io.countersign.engine.agent.AgentConfiguration;
import io.countersign.engine.chat.ToolCall;
import io.countersign.engine.invocation.InvocationRules;
import io.countersign.engine.chat.ChatMessage;
import io.countersign.engine.port.DecisionResult;
import io.countersign.engine.port.HostedRuns;
import io.countersign.engine.port.IdGenerator;
import io.countersign.engine.port.RunRepository;
import io.countersign.engine.port.RunTelemetry;
import io.countersign.engine.port.StoredRun;
import io.countersign.engine.state.PausedState;
import io.countersign.engine.tool.CallerChannel;
import io.countersign.engine.run.ToolLoop;
import io.countersign.engine.tool.RemoteTool;
import io.countersign.engine.tool.SchemaValidator;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.service.AgentDirectory;
import io.countersign.service.HostRunDecisions;
import io.countersign.service.ServerConnections;
import io.countersign.store.Store;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Countersign as an MCP gateway: the tools a profile offers a host, through the access gates, and one run per
 * host connection, driven by the same tool loop, rules, cards and journal as a run of an agent.
 */
public final class GatewayService {
    /** How the transcript answers a call its host withdrew (see {@link HostRunDecisions#withdrawCancelled}). */
    private static final String WITHDRAWN = "Error: declined by " + DecisionResult.AlreadyDecided.HOST_ACTOR + ": "
            + HostRunDecisions.HOST_CANCELLED;

    private final Store store;
    private final ToolRegistry registry;
    private final SchemaValidator schemas;
    private final InvocationRules rules;
    private final ServerConnections connections;
    private final Clock clock;
    private final IdGenerator ids;
    private final Locale locale;
    private final ToolAccessPolicy access;
    private final AgentDirectory agents;
    private final RunTelemetry telemetry;

    public GatewayService(Store store, ToolRegistry registry, SchemaValidator schemas, InvocationRules rules,
                          ServerConnections connections, RunTelemetry telemetry, Clock clock, IdGenerator ids,
                          Locale locale) {
        this.telemetry = Objects.requireNonNull(telemetry, "telemetry");
        this.store = Objects.requireNonNull(store, "store");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.schemas = Objects.requireNonNull(schemas, "schemas");
        this.rules = Objects.requireNonNull(rules, "rules");
        this.connections = Objects.requireNonNull(connections, "connections");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.ids = Objects.requireNonNull(ids, "ids");
        this.locale = Objects.requireNonNull(locale, "locale");
        this.access = new ToolAccessPolicy(registry, store.settings(), store.events().forRunLoop(), clock, ids);
        this.agents = new AgentDirectory(store.configurations());
    }

    /** See {@link HostRunDecisions#profile}. */
    public HostRunDecisions.Profiled profile(Actor actor, String name) {
        return decisions(loop(new HostTurns())).profile(actor, name);
    }

    /**
     * The tools the profile offers now, through the five access gates, recording a {@code tool_denied} event for
     * each refused one; a host sees them under the names and schemas their servers give.
     */
    public List<Tool> offered(HostRunDecisions.Profiled profiled) {
        return access.filterOfferable(candidates(profiled.profile()), profiled.profile(), profiled.actor()).stream()
                .map(registry::find).flatMap(Optional::stream).toList();
    }

    /** The names {@link #offered} would give now, recording nothing: to tell whether they changed. */
    public List<String> offerable(HostRunDecisions.Profiled profiled) {
        return access.explain(candidates(profiled.profile()), profiled.profile(), profiled.actor()).stream()
                .filter(ToolAccessDecision::permitted).map(ToolAccessDecision::toolName).toList();
    }

    /**
     * The fronted servers whose tools the profile offers now, by name, recording nothing: a profile that does not
     * offer a server's tools does not offer its resources or prompts either.
     */
    public List<String> offeredServers(HostRunDecisions.Profiled profiled) {
        return offerable(profiled).stream().map(registry::find).flatMap(Optional::stream)
                .filter(RemoteTool.class::isInstance).map(tool -> ((RemoteTool) tool).serverName()).distinct()
                .toList();
    }

    /**
     * A host connected: its run of the profile is recorded, running, at once, and its calls run as that run's
     * turns until it disconnects.
     */
    public GatewaySession connect(HostRunDecisions.Profiled profiled, String host) {
        HostTurns turns = new HostTurns();
        ToolLoop loop = loop(turns);
        return GatewaySession.start(profiled.actor(), profiled.profile(), host, turns, loop, decisions(loop),
                store.runs(), store.events().forRunLoop(), clock, ids, locale);
    }

    /**
     * Takes over the cards a stopped gateway of the same profile, serving the same person, left waiting on calls
     * their hosts made as MCP tasks: each run is this gateway's from now on ({@code HostedRuns#adoptHosted}),
     * driven by a session of its own whose task keeps its id, and whose call answers to {@code channel}'s caller.
     */
    public <C extends CallerChannel> List<Adopted<C>> adopt(HostRunDecisions.Profiled profiled,
                                                            Supplier<C> channels) {
        Set<String> stranded = store.runs().withoutGateway();
        List<Adopted<C>> adopted = new ArrayList<>();
        for (StoredRun run : store.runs().waiting()) {
            PausedState state = run.pausedState();
            // a host's turn is one call, so a task's card waits on that call alone
            if (!stranded.contains(run.runId()) || !run.waitsOnHostTask() || state.awaitingApproval().size() != 1
                    || !run.agent().equals(profiled.profile().name())
                    || !run.initiator().equals(profiled.actor().name())
                    || !store.runs().adoptHosted(run.runId(), clock.instant())) {
                continue;
            }
            C channel = channels.get();
            ToolCall call = state.awaitingApproval().get(0).call();
            HostTurns.HostCall task = new HostTurns.HostCall(call, new CompletableFuture<>(), channel);
            HostTurns turns = HostTurns.adopting(task);
            ToolLoop loop = loop(turns);
            GatewaySession session = GatewaySession.adopted(profiled.actor(), profiled.profile(), run, turns, loop,
                    decisions(loop), store.runs(), store.events().forRunLoop(), clock, ids, locale);
            adopted.add(new Adopted<>(session, new HostTask(GatewaySession.taskId(run.runId(), call.id()),
                    task.answer()), channel, run.waitingSince()));
        }
        return adopted;
    }

    /**
     * What a call its host made as an MCP task came to, as the store recorded it in the run's transcript: for a
     * host that polls a task whose gateway stopped after the call was answered. Only a run of the profile, for the
     * same person, as {@link #adopt} takes; empty while the call has no recorded answer (its card still waits, or
     * the stretch that answered it was never recorded, as when its process was killed).
     */
    public Optional<RecordedTask> recordedTask(HostRunDecisions.Profiled profiled, String taskId) {
        int slash = taskId.lastIndexOf('/');
        String callId = taskId.substring(slash + 1);
        if (slash <= 0 || !callId.startsWith(RunRepository.TASK_CALL)) {
            return Optional.empty();
        }
        return store.runs().find(taskId.substring(0, slash))
                .filter(run -> run.agent().equals(profiled.profile().name())
                        && run.initiator().equals(profiled.actor().name()))
                .flatMap(run -> run.transcript().stream()
                        .filter(message -> message.role() == ChatMessage.Role.TOOL
                                && callId.equals(message.toolCallId()))
                        .findFirst()
                        .map(message -> new RecordedTask(HostAnswer.of(message.content()),
                                message.content().startsWith(WITHDRAWN), run.createdAt(), run.updatedAt())));
    }

    /**
     * A task's call as its run recorded it: its answer, whether the host cancelled it, when its run began and was
     * last written.
     */
    public record RecordedTask(HostAnswer answer, boolean cancelled, Instant runStarted, Instant recorded) {
    }

    /** A task's card taken over from a stopped gateway: its run's session, the task, and since when it waits. */
    public record Adopted<C extends CallerChannel>(GatewaySession session, HostTask task, C channel,
                                                   Instant waitingSince) {
    }

    /** Tells the listener of every change of the store's settings (records, declarations, tool settings). */
    public AutoCloseable onSettingsChange(Runnable listener) {
        return store.changes().onSettingsChange(listener);
    }

    /** Tells the listener of every change of runs and decisions. */
    public AutoCloseable onRunChange(Runnable listener) {
        return store.changes().onRunChange(listener);
    }

    private List<String> candidates(AgentConfiguration profile) {
        Set<String> names = new LinkedHashSet<>();
        for (Tool tool : registry.tools()) {
            if (GatewaySession.candidate(profile, tool)) {
                names.add(tool.name());
            }
        }
        names.addAll(profile.allowedTools());
        return List.copyOf(names);
    }

    private ToolLoop loop(HostTurns turns) {
        return ToolLoop.builder(registry, turns)
                .schemas(schemas)
                .resultListener(turns)
                .callers(turns)
                .settings(store.settings())
                .invocationRules(rules)
                .events(store.events().forRunLoop())
                .telemetry(telemetry)
                .clock(clock)
                .ids(ids)
                .build();
    }

    private HostRunDecisions decisions(ToolLoop loop) {
        return new HostRunDecisions(store.runs(), agents, store.users(), store.approvals(), loop, registry,
                store.servers(), connections, clock);
    }
}
