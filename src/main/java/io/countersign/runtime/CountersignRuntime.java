package io.countersign.runtime;

import io.countersign.cel.CelConditionLanguage;
import io.countersign.engine.Actor;
import io.countersign.engine.chat.ModelConfiguration;
import io.countersign.engine.invocation.InvocationRules;
import io.countersign.engine.port.ConditionLanguage;
import io.countersign.engine.port.IdGenerator;
import io.countersign.engine.rules.DeclarativeRules;
import io.countersign.engine.port.WaitingRun;
import io.countersign.engine.tool.SchemaValidator;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.model.ChatModels;
import io.countersign.model.HttpModelOptions;
import io.countersign.service.AgentService;
import io.countersign.service.AskedInputs;
import io.countersign.service.AuditService;
import io.countersign.service.DeadlineApplied;
import io.countersign.service.DecisionStatsService;
import io.countersign.service.DefaultRunService;
import io.countersign.service.EventService;
import io.countersign.service.ExecutionService;
import io.countersign.service.Grants;
import io.countersign.service.Resumption;
import io.countersign.service.RuleService;
import io.countersign.service.RunService;
import io.countersign.service.ServerConnections;
import io.countersign.service.ServerService;
import io.countersign.service.SettingsService;
import io.countersign.service.UserService;
import io.countersign.service.WebhookService;
import io.countersign.store.Store;
import io.countersign.store.StoreLocation;
import io.countersign.store.StoreOptions;
import io.countersign.telemetry.LiveTelemetry;
import io.countersign.tools.BuiltinTools;
import io.countersign.tools.NetworkntSchemaValidator;
import io.countersign.tools.mcp.RemoteServers;
import io.countersign.tools.mcp.SecretResolver;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Everything a console or a command-line process needs, assembled over one store: the tool registry, the
 * invocation rules, the models, the loop, and the services. The one place where the parts are wired together.
 */
public final class CountersignRuntime implements AutoCloseable {
    /** The language of the declarative rules' conditions; compiling holds no state, so one serves every store. */
    static final ConditionLanguage CONDITIONS = new CelConditionLanguage();
    private final Store store;
    private final SharedHttpClient http;
    private final ToolRegistry registry;
    private final SchemaValidator schemas;
    private final DefaultRunService runs;
    private final UseCases services;
    private final RemoteServers remoteServers;
    private final LiveTelemetry telemetry;
    private volatile List<Resumption> resumedAtStart = List.of();
    private DeadlineSweeper deadlineSweeper;

    /** What a process does with the store, which decides what it registers, connects and recovers. */
    public enum Work {
        /**
         * Reads, or changes settings, users and agents: the process is not registered in the store, recovers no
         * run and connects no server, so that reading writes nothing.
         */
        ADMINISTER(false, ServerUse.NONE),
        /** Lists or governs tools by name: every enabled server's tools are imported; no run is driven. */
        GOVERN_TOOLS(false, ServerUse.ALL),
        /**
         * Carries out decisions (and starts runs of local tools): registered; each server is connected only when
         * the calls of a decision need it, also for the runs it recovers.
         */
        DECIDE(true, ServerUse.ON_REQUEST),
        /**
         * Commits decisions for a worker to carry out: not registered, recovers no run; the servers of the decided
         * calls are connected, so that the approver's rights on their tools are checked as a worker will find them.
         */
        QUEUE_DECISIONS(false, ServerUse.ON_REQUEST),
        /** Runs agents: registered; every enabled server's tools are imported before it recovers and runs. */
        RUN_AGENTS(true, ServerUse.ALL);

        private final boolean drivesRuns;
        private final ServerUse servers;

        Work(boolean drivesRuns, ServerUse servers) {
            this.drivesRuns = drivesRuns;
            this.servers = servers;
        }
    }

    /** Which MCP servers a process connects. */
    private enum ServerUse {
        NONE, ON_REQUEST, ALL
    }

    private CountersignRuntime(Store store, SharedHttpClient http, ToolRegistry registry, SchemaValidator schemas,
                               DefaultRunService runs, UseCases services, RemoteServers remoteServers,
                               LiveTelemetry telemetry) {
        this.telemetry = telemetry;
        this.store = store;
        this.http = http;
        this.registry = registry;
        this.schemas = schemas;
        this.runs = runs;
        this.services = services;
        this.remoteServers = remoteServers;
    }

    /**
     * Opens the store at the location, assembles the parts over it, and reconciles the runs that stopped
     * processes left running: their committed decisions are carried out again before this returns (see
     * {@link DefaultRunService#resumeInterrupted()}), which may take the runs' model calls. Connects to no MCP
     * server: for work that calls no remote tool.
     *
     * @throws io.countersign.store.StoreUnavailableException when the store cannot be opened; nothing was written
     */
    public static CountersignRuntime open(StoreLocation location) {
        return recovered(assemble(location, true, ServerUse.NONE), null);
    }

    /**
     * Opens the store for the given work. Work that imports every enabled server's tools waits for them first, at
     * most {@code importWait}; a process that drives runs then reconciles the runs stopped processes left
     * running, before this returns; a decision whose servers do not connect here is left for a process where they
     * do (see {@link #resumeInterrupted(Duration)}).
     *
     * @throws io.countersign.store.StoreUnavailableException when the store cannot be opened; nothing was written
     */
    public static CountersignRuntime open(StoreLocation location, Work work, Duration importWait) {
        Objects.requireNonNull(importWait, "importWait");
        CountersignRuntime runtime = assemble(location, work.drivesRuns, work.servers);
        if (work.drivesRuns) {
            return recovered(runtime, importWait);
        }
        if (runtime.remoteServers != null) {
            runtime.remoteServers.awaitImports(importWait);
        }
        return runtime;
    }

    /**
     * Like {@link #open(StoreLocation)}, and imports the tools of the enabled MCP servers: each server is connected
     * in the background, and followed as its record changes, here or in another process. Before the interrupted
     * runs are resumed, this waits for the imports, at most {@code importWait}; a server slower than that imports
     * its tools when it is ready, and one that fails is logged and tried again later.
     */
    public static CountersignRuntime openWithRemoteTools(StoreLocation location, Duration importWait) {
        return open(location, Work.RUN_AGENTS, importWait);
    }

    /**
     * Opens the store at the location, assembles the parts over it and starts importing the MCP servers' tools in
     * the background, leaving the runs that stopped processes left running to {@link #resumeInterrupted(Duration)}:
     * for the console, whose inbox must wait neither for the servers nor for the runs' models.
     *
     * @throws io.countersign.store.StoreUnavailableException when the store cannot be opened; nothing was written
     */
    public static CountersignRuntime openDeferringRecovery(StoreLocation location) {
        return assemble(location, StoreOptions.defaults(), ServerUse.ALL);
    }

    /**
     * Like {@link #openDeferringRecovery(StoreLocation)}, with the password a person typed for the PostgreSQL
     * login: it goes to the driver only, for this process.
     *
     * @throws io.countersign.store.LoginRefusedException when the server refuses the password
     */
    public static CountersignRuntime openDeferringRecovery(StoreLocation.Postgres location, String password) {
        return assemble(location, StoreOptions.defaults().withPassword(password), ServerUse.ALL);
    }

    private static CountersignRuntime recovered(CountersignRuntime runtime, Duration importWait) {
        try {
            runtime.resumeInterrupted(importWait);
            return runtime;
        } catch (RuntimeException e) {
            runtime.close();
            throw e;
        }
    }

    private static CountersignRuntime assemble(StoreLocation location, boolean drivesRuns, ServerUse serverUse) {
        StoreOptions options = StoreOptions.defaults();
        return assemble(location, drivesRuns ? options : options.withoutDrivingRuns(), serverUse);
    }

    private static CountersignRuntime assemble(StoreLocation location, StoreOptions options, ServerUse serverUse) {
        Store store = Store.open(location, options);
        RemoteServers remoteServers = null;
        LiveTelemetry telemetry = new LiveTelemetry(System.getenv(), () -> store.settings().telemetry(),
                store.changes());
        try {
            if (options.drivesRuns()) {
                // a process that drives runs (a console, a worker, decide) exports from its start, its waiting
                // cards included; one that only reads or administers reads the settings when something reports
                telemetry.follow();
            }
            telemetry.watchWaiting(() -> store.runs().waitingSummaries().stream()
                    .collect(Collectors.groupingBy(WaitingRun::agent, Collectors.counting())));
            SharedHttpClient http = new SharedHttpClient();
            ToolRegistry registry = new ToolRegistry();
            BuiltinTools.create(http, () -> store.settings().allowedHosts("web_fetch").orElse(List.of()))
                    .forEach(registry::register);
            registry.register(new IntakeFormTool());
            ServerConnections connections = ServerConnections.NONE;
            if (serverUse != ServerUse.NONE) {
                remoteServers = new RemoteServers(store.servers(), registry, SecretResolver.environment());
                if (serverUse == ServerUse.ALL) {
                    remoteServers.start(store.changes());
                } else {
                    remoteServers.startOnRequest(store.changes());
                }
                connections = connectionsOf(remoteServers);
            }
            Clock clock = Clock.systemUTC();
            InvocationRules rules = invocationRules(store, registry, clock);
            ChatModels models = ChatModels.openAiCompatible(http, HttpModelOptions.DEFAULTS)
                    .with(ScriptedModels.PROVIDER, ScriptedModels::load)
                    .with(ModelConfiguration.GATEWAY_PROVIDER, GatewayWiring::hostOnly);
            IdGenerator ids = IdGenerator.random();
            SchemaValidator schemas = new NetworkntSchemaValidator();
            DefaultRunService runs = DefaultRunService.overStore(store, registry, schemas, models.router(), rules,
                    connections, telemetry.runs(), clock, ids, Locale.getDefault());
            UseCases services = UseCases.over(store, registry, runs, models, http, telemetry, clock, ids,
                    rules.identifiers());
            return new CountersignRuntime(store, http, registry, schemas, runs, services, remoteServers, telemetry);
        } catch (RuntimeException e) {
            if (remoteServers != null) {
                remoteServers.close();
            }
            telemetry.close();
            store.close();
            throw e;
        }
    }

    /**
     * The invocation rules: the ones found with {@link java.util.ServiceLoader}, then the declarative rules saved
     * in the store, in CEL, live through the store's change feed.
     */
    static InvocationRules invocationRules(Store store, ToolRegistry registry, Clock clock) {
        return InvocationRules.discover(List.of(), List.of())
                .withLive(new DeclarativeRules(store.settings(), CONDITIONS, registry, clock));
    }

    private static ServerConnections connectionsOf(RemoteServers servers) {
        return new ServerConnections() {
            @Override
            public void request(Set<String> names) {
                servers.request(names);
            }

            @Override
            public Set<String> await(Set<String> names, Duration bound) {
                return servers.awaitServers(names, bound);
            }
        };
    }

    /**
     * The person this process acts for: on PostgreSQL the database login the server authenticated, elsewhere the
     * operating system's user; made admin when they are the store's first user.
     */
    public Actor localUser() {
        return store.users().signedIn(System.getProperty("user.name", "operator"));
    }

    /** Creates the demo workspace when the store has no agents yet; returns whether it did. */
    public boolean ensureDemo(Path dataFolder) {
        if (store.configurations().hasAgents()) {
            return false;
        }
        new DemoWorkspace(store, runs).create(dataFolder.resolve("demo-workspace"));
        return true;
    }

    /**
     * The user of this name as the store knows them, for a process acting on someone's behalf (tests, a service
     * account); a name the store does not know acts with no roles, so every role check refuses it.
     */
    public Actor user(String name) {
        return store.users().find(name).orElseGet(() -> new Actor(name, Set.of()));
    }

    /**
     * Reconciles the runs that stopped processes left running and carries out again their committed decisions
     * (see {@link DefaultRunService#resumeInterrupted()}); may take the runs' model calls. Waits first, at most
     * {@code importWait}, for the MCP servers' tools, which those runs may call; {@code null} waits for nothing.
     */
    public List<Resumption> resumeInterrupted(Duration importWait) {
        if (remoteServers != null && importWait != null) {
            remoteServers.awaitImports(importWait);
        }
        resumedAtStart = List.copyOf(runs.resumeInterrupted());
        return resumedAtStart;
    }

    /**
     * True when this process exports spans and metrics now: the stored telemetry settings or its {@code OTEL_*}
     * variables name an endpoint.
     */
    public boolean exporting() {
        return telemetry.on();
    }

    /** Applies the fallback of every waiting run whose deadline passed, here and now. */
    public List<DeadlineApplied> applyDeadlines() {
        return runs.applyDeadlines();
    }

    /**
     * Applies overdue deadlines at once, on the calling thread, and then every {@code period} on a thread of its
     * own, until this runtime closes: a console or a worker applies the deadlines of a store no process watched as
     * soon as it starts, and delivers the webhooks' events. Denying calls the runs' models, so the caller is never
     * the JavaFX thread.
     */
    public void sweepDeadlinesEvery(Duration period) {
        DeadlineSweeper started;
        synchronized (this) {
            if (deadlineSweeper != null) {
                return;
            }
            started = new DeadlineSweeper(runs::applyDeadlines, period);
            deadlineSweeper = started;
            services.webhooks().startDelivering();
        }
        started.sweepNow();
    }

    /** What start-up recovery ({@link #resumeInterrupted(Duration)}) did; empty before it ran. */
    public List<Resumption> resumedAtStart() {
        return resumedAtStart;
    }

    /** The one JSON Schema validator of this process: arguments, edits, typed input and questions' answers. */
    public SchemaValidator schemas() {
        return schemas;
    }

    /** The questions tools ask during this process's calls, for the surface that shows them. */
    public AskedInputs askedInputs() {
        return runs.askedInputs();
    }

    public RunService runs() {
        return runs;
    }

    public Optional<Grants> grants() {
        return runs.grants();
    }

    public EventService events() {
        return services.events();
    }

    public AuditService audit() {
        return services.audit();
    }

    public DecisionStatsService decisionStats() {
        return services.decisionStats();
    }

    public SettingsService settings() {
        return services.settings();
    }

    /** The declarative invocation rules. */
    public RuleService rules() {
        return services.rules();
    }

    public UserService users() {
        return services.users();
    }

    public AgentService agents() {
        return services.agents();
    }

    public ExecutionService execution() {
        return services.execution();
    }

    public ServerService servers() {
        return services.servers();
    }

    public WebhookService webhooks() {
        return services.webhooks().service();
    }

    public GatewayWiring gateway() {
        return new GatewayWiring(store, registry, schemas, remoteServers, telemetry.runs());
    }

    public Store store() {
        return store;
    }

    public ToolRegistry registry() {
        return registry;
    }

    /** A one-line description of the store for a status bar or a log. */
    public String describeStore() {
        return store.location().describe();
    }

    @Override
    public void close() {
        close(false);
    }

    /** As {@link #close()}, for a process that exits right after (see {@link Store#closeBeforeExit()}). */
    public void closeBeforeExit() {
        close(true);
    }

    private void close(boolean beforeExit) {
        synchronized (this) {
            if (deadlineSweeper != null) {
                deadlineSweeper.close();
            }
        }
        services.webhooks().close();
        if (remoteServers != null) {
            remoteServers.close();
        }
        // before the store: the last collection still counts the cards waiting in it
        telemetry.close();
        if (beforeExit) {
            store.closeBeforeExit();
        } else {
            store.close();
        }
        http.close();
    }
}
