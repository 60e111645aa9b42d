package io.countersign.tools.gateway;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Json;
import io.countersign.engine.ProjectVersion;
import io.countersign.engine.event.EventType;
import io.countersign.engine.tool.InputPrompts;
import io.countersign.engine.tool.RemoteTool;
import io.countersign.engine.tool.Tool;
import io.countersign.engine.tool.WithdrawableCaller;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.server.McpAsyncServerExchange;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import io.modelcontextprotocol.spec.McpServerTransportProviderBase;
import io.modelcontextprotocol.spec.McpStreamableServerTransportProvider;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import reactor.core.publisher.Mono;

/**
 * The gateway's MCP server side, on the official MCP Java SDK: it offers the host the tools of the fronted servers
 * under the names and schemas those servers give (prefixed with the server's name only where two servers use the
 * same name), sends {@code notifications/tools/list_changed} when the offered set changes, and hands every
 * {@code tools/call} to the {@link GatewayBackend}, sending progress notifications while a call waits for a person
 * and passing on the fronted server's own while it executes.
 */
public final class McpGateway implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(McpGateway.class.getName());
    private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {
    };

    private final GatewayBackend backend;
    private final Duration progressEvery;
    private final Map<String, GatewayBackend.Connection> connections = new ConcurrentHashMap<>();
    /** The calls each host still waits for, by session and request id, so that the host can cancel one. */
    private final Map<String, OpenCall> openCalls = new ConcurrentHashMap<>();
    private final CountDownLatch closed = new CountDownLatch(1);
    private final ScheduledExecutorService poll = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "countersign-gateway-tools");
        thread.setDaemon(true);
        return thread;
    });
    private final CoalescedListChanges transport = new CoalescedListChanges();
    private final HostTasks tasks;
    private final HostCapabilities capabilities;
    private McpAsyncServer server;
    /** The host's transport as the SDK's server has it, which sends a notification to one session. */
    private McpServerTransportProviderBase hostTransport;
    private volatile ResourcesAndPrompts resourcesAndPrompts;
    private final FrontedRequests fronted;
    /** Ready before the host's first message: stdio reads it while the server is being built. */
    private final AnsweredHere answeredHere;
    private AutoCloseable subscription;
    /** Host-visible name → registry name, as offered last; guarded by this. */
    private Map<String, String> offered = Map.of();

    private McpGateway(GatewayBackend backend, Duration progressEvery, HostCapabilities capabilities) {
        this.backend = backend;
        this.progressEvery = progressEvery;
        this.capabilities = capabilities;
        this.tasks = new HostTasks(this::startTask, backend::recordedTask, this::notifyHost, Clock.systemUTC());
        this.fronted = new FrontedRequests(() -> resourcesAndPrompts, new FrontedRequests.Hosts() {
            @Override
            public void used(String sessionId, EventType use, String server, String detail) {
                connection(sessionId, null).used(use, server, detail);
            }

            @Override
            public void updated(String sessionId, String uri) {
                notifyHost(sessionId, FrontedRequests.UPDATED, new McpSchema.ResourcesUpdatedNotification(uri));
            }
        });
        this.answeredHere = AnsweredHere.first(List.of(tasks, fronted));
    }

    /**
     * Serves the backend over stdio: the host started this process as its server command. Returns once the
     * server answers; {@link #awaitClosed()} waits until the host closes standard input.
     *
     * @param progressEvery how often a call that waits for a person tells the host it is still alive
     */
    public static McpGateway stdio(GatewayBackend backend, InputStream in, OutputStream out, Duration progressEvery) {
        HostCapabilities capabilities = new HostCapabilities();
        McpGateway gateway = new McpGateway(backend, progressEvery, capabilities);
        StdioHostTransport stdio = new StdioHostTransport(new CleanErrorsMapper(McpJsonDefaults.getMapper(),
                capabilities), in, out, gateway::hostGone, gateway::cancelled, gateway.answeredHere);
        McpServerTransportProvider provider = gateway.transport.around(InitializeWatch.around(stdio,
                gateway::initialized));
        gateway.hostTransport = provider;
        gateway.start(McpServer.async(provider));
        return gateway;
    }

    /**
     * Serves the backend over a streamable HTTP transport, each of its sessions a host connection of its own.
     * {@link #sessionEnded} ends one; {@link #awaitClosed()} waits until the gateway is stopped.
     *
     * @param capabilities what the provider's JSON mapper tells a host beyond the SDK's own answers
     */
    static McpGateway streamable(GatewayBackend backend, McpStreamableServerTransportProvider provider,
                                 Duration progressEvery, HostCapabilities capabilities) {
        McpGateway gateway = new McpGateway(backend, progressEvery, capabilities);
        McpStreamableServerTransportProvider wrapped = gateway.transport.around(InitializeWatch.around(provider,
                gateway::initialized));
        gateway.hostTransport = wrapped;
        gateway.start(McpServer.async(wrapped));
        return gateway;
    }

    private void start(McpServer.AsyncSpecification<?> specification) {
        server = specification
                .serverInfo("countersign-gateway", ProjectVersion.current())
                .capabilities(McpSchema.ServerCapabilities.builder().tools(true).resources(false, true)
                        .prompts(true).logging().build())
                // a host's answer to a fronted server's request may take a person: as long as a question may wait
                .requestTimeout(InputPrompts.LONGEST_WAIT)
                .validateToolInputs(false)
                .build();
        resourcesAndPrompts = new ResourcesAndPrompts(server, (exchange, use, owner, detail) ->
                connection(exchange.sessionId(), exchange.getClientInfo()).used(use, owner, detail));
        syncTools(true);
        tasks.adopt(backend.adoptTasks(WithdrawableCaller::new));
        subscription = backend.onToolsChange(() -> syncTools(false));
        // A server's tools arrive when it has connected, and leave when it stops: no setting says so.
        poll.scheduleWithFixedDelay(this::followTools, 1, 1, TimeUnit.SECONDS);
    }

    private void followTools() {
        try {
            syncTools(false);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "the gateway could not bring its tools list up to date: " + e.getMessage(), e);
        }
    }

    /**
     * Offers the tools the backend offers now, and the resources and prompts of their servers; tells the host which
     * lists changed.
     */
    private synchronized void syncTools(boolean first) {
        if (closed.getCount() == 0) {
            return;
        }
        if (!first && List.copyOf(offered.values()).equals(backend.offerable())) {
            return;
        }
        List<Tool> tools = backend.offered();
        Map<String, String> next = hostNames(tools);
        Map<String, Tool> byName = new HashMap<>();
        tools.forEach(tool -> byName.put(tool.name(), tool));
        Set<String> changed = new HashSet<>();
        transport.hold();
        try {
            for (String name : offered.keySet()) {
                server.removeTool(name).block();
            }
            next.forEach((hostName, registryName) -> server.addTool(specification(hostName,
                    byName.get(registryName))).block());
            offered = next;
            changed.add(McpSchema.METHOD_NOTIFICATION_TOOLS_LIST_CHANGED);
            changed.addAll(resourcesAndPrompts.sync(backend.servers()));
            capabilities.fronted(resourcesAndPrompts.subscriptions(), resourcesAndPrompts.completions());
        } finally {
            transport.release(first ? Set.of() : changed);
        }
    }

    /** The name a host sees for each offered tool: the server's own, unless two offered tools share it. */
    private static Map<String, String> hostNames(List<Tool> tools) {
        Map<String, Integer> uses = new HashMap<>();
        Map<String, String> own = new LinkedHashMap<>();
        for (Tool tool : tools) {
            String shortName = ownName(tool);
            own.put(tool.name(), shortName);
            uses.merge(shortName, 1, Integer::sum);
        }
        Map<String, String> names = new LinkedHashMap<>();
        own.forEach((registryName, shortName) -> names.put(uses.get(shortName) == 1 ? shortName : registryName,
                registryName));
        return names;
    }

    private static String ownName(Tool tool) {
        return tool instanceof RemoteTool remote && tool.name().startsWith(remote.serverName() + ".")
                ? tool.name().substring(remote.serverName().length() + 1) : tool.name();
    }

    private McpServerFeatures.AsyncToolSpecification specification(String hostName, Tool tool) {
        McpSchema.Tool described = McpSchema.Tool.builder().name(hostName).description(tool.description())
                .inputSchema(Json.mapper().convertValue(tool.argumentSchema(), OBJECT)).build();
        return McpServerFeatures.AsyncToolSpecification.builder().tool(described)
                .callHandler((exchange, request) -> call(exchange, tool.name(), request)).build();
    }

    /**
     * Hands the host's call to its run without holding a thread while it waits: the answer goes back from the
     * thread that completes it (the one that read the server's answer, or the run's for a refusal, a failure or an
     * edited call). While the call executes, the fronted server's progress reaches the host through the call's
     * {@link HostChannel}; while a card waits, the host is told every {@code progressEvery} that the call is alive.
     * Both only when the host asked for progress. A call the host cancels, or whose stream closes while it waits,
     * is withdrawn ({@link #cancelled}) and gets no answer, as MCP asks of a cancelled request.
     */
    private Mono<McpSchema.CallToolResult> call(McpAsyncServerExchange exchange, String registryName,
                                                McpSchema.CallToolRequest request) {
        ObjectNode arguments = Json.mapper().valueToTree(request.arguments() == null ? Map.of()
                : request.arguments());
        Object token = request.meta() == null ? null : request.meta().get("progressToken");
        Object traceParent = request.meta() == null ? null : request.meta().get("traceparent");
        HostChannel host = new HostChannel(exchange, token, traceParent instanceof String text ? text : null);
        String session = sessionKey(exchange.sessionId());
        String requestKey = HostRequests.key(exchange);
        GatewayBackend.Connection connection;
        CompletableFuture<GatewayBackend.Answer> answer;
        try {
            connection = connection(exchange.sessionId(), exchange.getClientInfo());
            answer = connection.call(registryName, arguments, host);
        } catch (RuntimeException e) {
            return Mono.just(failed(registryName, e));
        }
        OpenCall open = new OpenCall(host, connection, new CompletableFuture<>());
        String openKey = requestKey == null ? null : session + " " + requestKey;
        if (openKey != null) {
            openCalls.put(openKey, open);
        }
        // A progress notification the host's stream cannot take ends the request, which closes that stream.
        ScheduledFuture<?> progress = token == null ? null : progress(host, connection, open);
        Mono<McpSchema.CallToolResult> answered = Mono.fromFuture(answer, true).map(McpGateway::result)
                .onErrorResume(RuntimeException.class, e -> Mono.just(failed(registryName, e)));
        return Mono.firstWithSignal(answered, Mono.fromFuture(open.withdrawn(), true).then(Mono.empty()))
                .doFinally(signal -> {
                    if (progress != null) {
                        progress.cancel(false);
                    }
                    if (openKey != null) {
                        openCalls.remove(openKey, open);
                    }
                });
    }

    /**
     * The host gave up on its request {@code requestId} ({@code notifications/cancelled}) in the session: if it is
     * a call still open, it is withdrawn; a card it waits on ends without a decision, through the same claim a
     * person's decision makes, and nothing of it executes. A request that is not open (answered already, or never a
     * call) is left alone, as MCP allows.
     */
    public void cancelled(String sessionId, Object requestId) {
        OpenCall open = openCalls.remove(sessionKey(sessionId) + " " + HostRequests.key(requestId));
        if (open != null) {
            open.withdraw();
        }
    }

    private static String sessionKey(String sessionId) {
        return sessionId == null ? "stdio" : sessionId;
    }

    /** A host's call that has no answer yet: the way to withdraw it. */
    private record OpenCall(HostChannel host, GatewayBackend.Connection connection,
                            CompletableFuture<Void> withdrawn) {
        void withdraw() {
            host.withdraw();
            withdrawn.complete(null);
            try {
                connection.withdraw(host);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "withdrawing a call the host cancelled failed: " + e.getMessage(), e);
            }
        }
    }

    private ScheduledFuture<?> progress(HostChannel host, GatewayBackend.Connection connection, OpenCall open) {
        return poll.scheduleWithFixedDelay(() -> host.step(connection.waiting(), e -> {
            LOG.log(Level.WARNING, "a progress notification to the host failed, so its request is closed and the"
                    + " call withdrawn: " + e.getMessage(), e);
            open.withdraw();
        }), progressEvery.toMillis(), progressEvery.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Hands the host's call of the tool it sees as {@code hostName} to its run as a task; empty when no offered
     * tool has that name.
     */
    private Optional<HostTasks.Started> startTask(String sessionId, String hostName, ObjectNode arguments,
                                                  WithdrawableCaller channel) {
        String registryName;
        synchronized (this) {
            registryName = offered.get(hostName);
        }
        if (registryName == null) {
            return Optional.empty();
        }
        GatewayBackend.Connection connection = connection(sessionId, null);
        return Optional.of(new HostTasks.Started(connection, registryName,
                connection.callAsTask(registryName, arguments, channel)));
    }

    /** Sends the session a notification, without waiting for it to be written; a session gone takes none. */
    private void notifyHost(String sessionId, String method, Object params) {
        hostTransport.notifyClient(sessionId, method, params).subscribe(null, failure -> LOG.log(Level.FINE,
                "a " + method + " did not reach its host: " + failure.getMessage(), failure));
    }

    /** The host requests answered here, before the SDK sees them: tasks, subscriptions, completions. */
    AnsweredHere answeredHere() {
        return answeredHere;
    }

    /** True while the session is a host's connection here: it initialized, and has not ended. */
    boolean connected(String sessionId) {
        return connections.containsKey(sessionKey(sessionId));
    }

    static McpSchema.CallToolResult failed(String registryName, Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        LOG.log(Level.WARNING, "a host's call of " + registryName + " failed", cause);
        // the log has the whole failure; the host its sentence, unless that names the process's insides
        return failure("Error: " + JsonRpcErrors.clean(McpSchema.ErrorCodes.INTERNAL_ERROR, cause.getMessage()));
    }

    /**
     * The server's own result when the call executed and succeeded (with a text item saying so after its content
     * when a person changed the arguments), else the text the transcript holds. A success says
     * {@code isError: false} even where the server left it out, as the text answer always did.
     */
    static McpSchema.CallToolResult result(GatewayBackend.Answer answer) {
        if (answer.serverResult() instanceof ObjectNode own && !answer.error()) {
            ObjectNode copy = own.deepCopy().put("isError", false);
            if (answer.note() != null) {
                copy.withArray("content").addObject().put("type", "text").put("text", answer.note().strip());
            }
            return McpJsonDefaults.getMapper().convertValue(copy, McpSchema.CallToolResult.class);
        }
        return McpSchema.CallToolResult.builder().addTextContent(answer.text()).isError(answer.error()).build();
    }

    private static McpSchema.CallToolResult failure(String text) {
        return McpSchema.CallToolResult.builder().addTextContent(text).isError(true).build();
    }

    /** A host sent {@code initialize}: its run starts now, before any call. */
    private void initialized(String sessionId, McpSchema.Implementation client) {
        try {
            connection(sessionId, client);
        } catch (RuntimeException e) {
            // the host's first call connects it again, and fails with the reason if it still cannot
            LOG.log(Level.WARNING, "the gateway could not start the run of a connecting host: " + e.getMessage(), e);
        }
    }

    private GatewayBackend.Connection connection(String sessionId, McpSchema.Implementation client) {
        return connections.computeIfAbsent(sessionKey(sessionId), ignored -> backend.connect(
                client == null ? "(unnamed host)" : client.name() + " " + client.version()));
    }

    /**
     * One host's session ended (deleted, or gone): its run ends as a disconnect does, the other sessions' runs go
     * on; but a run that carries a task of the host's ends only once its tasks came to something, so that a host
     * that reconnects gets their results.
     */
    public void sessionEnded(String sessionId) {
        GatewayBackend.Connection connection = connections.remove(sessionId);
        fronted.sessionEnded(sessionId);
        if (connection != null) {
            // not on the thread that completes a task's answer: that may be the run's own, which closing waits for
            tasks.settled(connection).whenCompleteAsync((ignored, failure) -> connection.close());
        }
    }

    /**
     * The host closed the connection, or stopped this server: its run ends, and a card still waiting takes no
     * decision; but one waiting on a call made as a task is left for the next gateway of the profile to take over.
     */
    public void hostGone() {
        connections.values().forEach(GatewayBackend.Connection::close);
        connections.clear();
        tasks.gatewayStopped();
        closed.countDown();
    }

    /** Waits until the host closed the connection. */
    public void awaitClosed() throws InterruptedException {
        closed.await();
    }

    @Override
    public void close() {
        hostGone();
        poll.shutdownNow();
        fronted.close();
        try {
            if (subscription != null) {
                subscription.close();
            }
        } catch (Exception e) {
            LOG.log(Level.FINE, "closing the change subscription failed", e);
        }
        if (server != null) {
            server.close();
        }
    }
}
