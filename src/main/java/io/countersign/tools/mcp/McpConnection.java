package io.countersign.tools.mcp;

import com.fasterxml.jackson.core.JacksonException;
import io.countersign.engine.ProjectVersion;
import io.countersign.engine.RetryPolicy;
import io.countersign.engine.tool.InputPrompts;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.engine.tool.ToolCallRequest;
import io.countersign.tools.mcp.oauth.OAuthClientSettings;
import io.countersign.tools.mcp.oauth.OAuthSetup;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import reactor.core.Exceptions;
import reactor.core.publisher.Mono;

/**
 * One server's MCP session on the SDK's async client. It connects on demand: the first use starts or reaches the
 * server and completes the handshake; a use after the server died connects again. Failed attempts back off
 * ({@link #RECONNECTS}), so a dead server is not restarted on every call. Every request has a deadline, and a
 * stdio server that dies fails its open requests at once.
 */
final class McpConnection implements AutoCloseable, ServerFeatures {
    /** After failed connects in a row: half a second, doubled per failure up to 30 s, for as long as it is used. */
    static final RetryPolicy RECONNECTS = new RetryPolicy(Duration.ofMillis(500), 2, Duration.ofSeconds(30),
            RetryPolicy.UNLIMITED, 0);
    /** The SDK's own request deadline, a backstop behind the deadlines applied here. */
    private static final Duration SDK_DEADLINE_MARGIN = Duration.ofSeconds(5);
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);
    private static final int MAX_ERROR_TEXT = 300;
    /** The most pages a listing follows: a server whose cursor never ends cannot hold a listing forever. */
    private static final int MAX_PAGES = 100;
    /** How often a wait looks at a deadline again while it is stopped (a person answers the server's question). */
    private static final long STOPPED_DEADLINE_LOOK = TimeUnit.MILLISECONDS.toNanos(100);
    /** How often a call's wait looks whether its caller withdrew it. */
    private static final long WITHDRAWAL_LOOK = TimeUnit.MILLISECONDS.toNanos(100);
    /** How long a server asked to stop a call may still answer it before its outcome is taken as unknown. */
    private static final Duration CANCEL_GRACE = Duration.ofSeconds(2);
    /** What a server is told when a call's caller gave it up. */
    private static final String CANCEL_REASON = "the caller gave up the call";
    private static final Logger LOG = Logger.getLogger(McpConnection.class.getName());
    private static final McpSchema.Implementation CLIENT = McpSchema.Implementation.builder("countersign",
            ProjectVersion.current()).title("Countersign").build();

    /** What the owner of a connection hears about; called on a transport thread, so it must not block. */
    interface Listener {
        /** The server announced that its tool list changed. */
        void toolsChanged();

        /** A new session replaced one that was lost; the server may offer other tools now. */
        void reconnected();
    }

    private record Session(McpAsyncClient client, ClientTap calls, Mono<String> gone, AtomicBoolean lost) {
        boolean alive() {
            return !lost.get();
        }
    }

    private final McpServerRecord server;
    private final McpTransports transports;
    /** The deadlines of the handshake and listings under way; a sign-in in the browser stops them, as it does calls'. */
    private final Set<CallDeadline> running = ConcurrentHashMap.newKeySet();
    private final Listener listener;
    private final Clock clock;
    private final McpJsonMapper json = McpJsonDefaults.getMapper();
    private final Object lock = new Object();
    private final OpenCalls openCalls;
    /** The resources whose updates were asked for: a new session asks for them again. */
    private final Set<String> subscribed = ConcurrentHashMap.newKeySet();
    private final List<Consumer<String>> updateListeners = new CopyOnWriteArrayList<>();
    private Session session;
    private boolean connectedBefore;
    private int failures;
    private Instant nextAttempt = Instant.MIN;
    private boolean closed;

    /** {@code oauth} null: a Streamable HTTP server is never signed in to through OAuth. */
    McpConnection(McpServerRecord server, SecretResolver secrets, Listener listener, Clock clock, OAuthSetup oauth) {
        this.server = server;
        this.openCalls = new OpenCalls(server.name());
        this.transports = new McpTransports(server, secrets, json, oauth, () -> {
            List<CallDeadline> all = openCalls.deadlines();
            all.addAll(running);
            return all;
        });
        this.listener = listener;
        this.clock = clock;
    }

    /** Every tool the server lists now, all pages. */
    List<McpSchema.Tool> listTools() {
        Session current = session();
        McpSchema.ServerCapabilities capabilities = current.client().getServerCapabilities();
        if (capabilities == null || capabilities.tools() == null) {
            return List.of(); // a server without the tools capability offers none and may not be asked
        }
        McpSchema.ListToolsResult result = watched(current, current.client().listTools(), "tools/list");
        if (result.tools() == null) {
            throw new McpServerException(McpServerException.Kind.INVALID_ANSWER, name()
                    + " answered tools/list without a list of tools");
        }
        return result.tools();
    }

    @Override
    public String serverName() {
        return server.name();
    }

    @Override
    public List<McpSchema.Resource> resources() {
        Session current = session();
        if (declared(current, McpSchema.ServerCapabilities::resources)) {
            return pages(cursor -> watched(current, current.client().listResources(cursor), "resources/list"),
                    McpSchema.ListResourcesResult::resources, McpSchema.ListResourcesResult::nextCursor);
        }
        return List.of();
    }

    @Override
    public List<McpSchema.ResourceTemplate> resourceTemplates() {
        Session current = session();
        if (declared(current, McpSchema.ServerCapabilities::resources)) {
            return pages(cursor -> watched(current, current.client().listResourceTemplates(cursor),
                    "resources/templates/list"), McpSchema.ListResourceTemplatesResult::resourceTemplates,
                    McpSchema.ListResourceTemplatesResult::nextCursor);
        }
        return List.of();
    }

    @Override
    public McpSchema.ReadResourceResult read(McpSchema.ReadResourceRequest request) {
        Session current = session();
        return watched(current, current.client().readResource(request), "resources/read");
    }

    @Override
    public boolean offersSubscriptions() {
        McpSchema.ServerCapabilities capabilities = session().client().getServerCapabilities();
        return capabilities != null && capabilities.resources() != null
                && Boolean.TRUE.equals(capabilities.resources().subscribe());
    }

    @Override
    public boolean offersCompletions() {
        return declared(session(), McpSchema.ServerCapabilities::completions);
    }

    @Override
    public void subscribe(String uri) {
        Session current = session();
        subscribe(current, uri);
        subscribed.add(uri);
    }

    @Override
    public void unsubscribe(String uri) {
        subscribed.remove(uri);
        Session current = session();
        // the SDK's answer to it is empty: the URI stands for "answered"
        watched(current, current.client().unsubscribeResource(new McpSchema.UnsubscribeRequest(uri))
                .thenReturn(uri), "resources/unsubscribe");
    }

    @Override
    public AutoCloseable onResourceUpdated(Consumer<String> listener) {
        updateListeners.add(listener);
        return () -> updateListeners.remove(listener);
    }

    @Override
    public McpSchema.CompleteResult complete(McpSchema.CompleteRequest request) {
        Session current = session();
        return watched(current, current.client().completeCompletion(request), "completion/complete");
    }

    @Override
    public List<McpSchema.Prompt> prompts() {
        Session current = session();
        if (declared(current, McpSchema.ServerCapabilities::prompts)) {
            return pages(cursor -> watched(current, current.client().listPrompts(cursor), "prompts/list"),
                    McpSchema.ListPromptsResult::prompts, McpSchema.ListPromptsResult::nextCursor);
        }
        return List.of();
    }

    @Override
    public McpSchema.GetPromptResult prompt(McpSchema.GetPromptRequest request) {
        Session current = session();
        return watched(current, current.client().getPrompt(request), "prompts/get");
    }

    /** Whether the server declared the capability: one that did not may not be asked for it. */
    private static boolean declared(Session current, Function<McpSchema.ServerCapabilities, ?> capability) {
        McpSchema.ServerCapabilities capabilities = current.client().getServerCapabilities();
        return capabilities != null && capability.apply(capabilities) != null;
    }

    /** Every page of a listing, following its cursor, at most {@value #MAX_PAGES} of them. */
    private static <R, T> List<T> pages(Function<String, R> page, Function<R, List<T>> items,
                                        Function<R, String> next) {
        List<T> all = new ArrayList<>();
        String cursor = null;
        for (int pages = 0; pages < MAX_PAGES; pages++) {
            R result = page.apply(cursor);
            if (items.apply(result) != null) {
                all.addAll(items.apply(result));
            }
            cursor = next.apply(result);
            if (cursor == null || cursor.isEmpty()) {
                break;
            }
        }
        return all;
    }

    /**
     * Calls a tool by the server's own name for it, within the record's call timeout; the time the server waits for
     * the person's answer to its question ({@code elicitation/create}) does not count. The call carries a progress
     * token of its own only when its caller wants progress. {@code answered} sees the result first, on the thread
     * that read it, before this method returns it.
     */
    McpSchema.CallToolResult call(String tool, Map<String, Object> arguments, ToolCallRequest request,
                                  Consumer<McpSchema.CallToolResult> answered) {
        Session current = session();
        OpenCalls.OpenCall open = openCalls.open(request, server.callTimeout());
        McpSchema.CallToolRequest.Builder outgoing = McpSchema.CallToolRequest.builder(tool).arguments(arguments);
        if (open.progressToken() != null) {
            outgoing.progressToken(open.progressToken());
        }
        McpSchema.CallToolRequest call = outgoing.build();
        current.calls().watch(call);
        try {
            Mono<McpSchema.CallToolResult> sent = current.client().callTool(call)
                    .doOnNext(result -> early(answered, result, tool));
            return await(current, sent, open.deadline(), server.callTimeout(), "the call of \"" + tool + "\"",
                    new Withdrawal(request, () -> current.calls().cancel(call, CANCEL_REASON)));
        } finally {
            current.calls().forget(call);
            openCalls.close(open);
        }
    }

    @Override
    public void close() {
        synchronized (lock) {
            closed = true;
            if (session != null) {
                discard(session);
                session = null;
            }
        }
    }

    private Session session() {
        synchronized (lock) {
            if (closed) {
                throw new McpServerException(McpServerException.Kind.UNREACHABLE, name() + " was disconnected");
            }
            if (session != null && session.alive()) {
                return session;
            }
            if (session != null) {
                discard(session);
                session = null;
            }
            Instant now = clock.instant();
            if (failures > 0 && now.isBefore(nextAttempt)) {
                long seconds = Math.max(1, (Duration.between(now, nextAttempt).toMillis() + 999) / 1000);
                throw new McpServerException(McpServerException.Kind.BACKING_OFF, name()
                        + " could not be reached a moment ago; the next attempt is in " + seconds + " s");
            }
            try {
                session = open();
            } catch (McpServerException e) {
                failures++;
                nextAttempt = clock.instant().plus(RECONNECTS.delayBefore(failures));
                throw e;
            }
            failures = 0;
            if (connectedBefore) {
                listener.reconnected();
            }
            connectedBefore = true;
            return session;
        }
    }

    private Session open() {
        McpClientTransport transport = transports.create();
        Mono<String> gone = transport instanceof StdioProcessTransport stdio ? stdio.gone() : Mono.never();
        ClientTap calls = new ClientTap(transport, this::resourceUpdated);
        McpAsyncClient client = openCalls.handling(McpClient.async(calls))
                .clientInfo(CLIENT)
                .requestTimeout(longer(server.callTimeout(), server.connectTimeout()).plus(InputPrompts.LONGEST_WAIT)
                        .plus(SDK_DEADLINE_MARGIN))
                .initializationTimeout(server.connectTimeout().plus(OAuthClientSettings.DEFAULT_SIGN_IN_TIMEOUT)
                        .plus(SDK_DEADLINE_MARGIN))
                .toolsChangeConsumer(tools -> Mono.fromRunnable(listener::toolsChanged))
                .build();
        Session fresh = new Session(client, calls, gone, new AtomicBoolean());
        // a server that dies between calls is replaced at the next use instead of failing it
        gone.subscribe(reason -> fresh.lost().set(true));
        try {
            watched(fresh, client.initialize(), "the handshake");
        } catch (McpServerException e) {
            discard(fresh);
            throw withLastWords(e, transport);
        }
        resubscribe(fresh);
        return fresh;
    }

    /** A new session of a server that lost the last one asks again for the updates asked for before. */
    private void resubscribe(Session fresh) {
        for (String uri : subscribed) {
            try {
                subscribe(fresh, uri);
            } catch (McpServerException e) {
                LOG.log(Level.WARNING, "{0} no longer sends updates of a resource it was asked for: {1}",
                        new Object[] {name(), e.getMessage()});
            }
        }
    }

    private void subscribe(Session current, String uri) {
        // the SDK's answer to it is empty: the URI stands for "answered"
        watched(current, current.client().subscribeResource(new McpSchema.SubscribeRequest(uri)).thenReturn(uri),
                "resources/subscribe");
    }

    private void resourceUpdated(String uri) {
        for (Consumer<String> listener : updateListeners) {
            try {
                listener.accept(uri);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "passing on an update of a resource of " + name() + " failed: "
                        + e.getMessage(), e);
            }
        }
    }

    /** A stdio server that ended during the handshake usually said why on stderr: the person needs those lines. */
    private static McpServerException withLastWords(McpServerException failure, McpClientTransport transport) {
        if (failure.kind() == McpServerException.Kind.CONFIGURATION
                || !(transport instanceof StdioProcessTransport stdio)) {
            return failure;
        }
        List<String> lines = stdio.lastErrorLines();
        if (lines.isEmpty()) {
            return failure;
        }
        return new McpServerException(McpServerException.Kind.STOPPED, failure.getMessage() + "; its last lines on"
                + " stderr: " + String.join(" | ", lines));
    }

    /** Where the OAuth grant is kept, or null when the server is not authorized through OAuth. */
    String credentialStore() {
        return transports.sendsToken() ? transports.credentialStore() : null;
    }

    private <T> T watched(Session current, Mono<T> request, String what) {
        CallDeadline deadline = new CallDeadline(server.connectTimeout());
        running.add(deadline);
        try {
            return await(current, request, deadline, server.connectTimeout(), what, null);
        } finally {
            running.remove(deadline);
        }
    }

    /** Hands the call's result on as soon as it arrived; what fails there leaves the call's own result as it is. */
    private void early(Consumer<McpSchema.CallToolResult> answered, McpSchema.CallToolResult result, String tool) {
        try {
            answered.accept(result);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "handing on the early result of " + tool + " failed: " + e.getMessage(), e);
        }
    }

    /**
     * Waits for one request, failing early when the server dies and late when it does not answer in time. A call
     * ({@code withdrawal} not null) may change something, so a failure leaves its outcome unknown; when its caller
     * withdraws it meanwhile, its server is asked to stop it and given {@link #CANCEL_GRACE} to answer: an answer
     * is the call's outcome as the server reports it, silence leaves the outcome unknown.
     */
    private <T> T await(Session current, Mono<T> request, CallDeadline deadline, Duration timeout, String what,
                        Withdrawal withdrawal) {
        boolean acts = withdrawal != null;
        CompletableFuture<T> answer = Mono.firstWithSignal(request,
                current.gone().<T>flatMap(reason -> Mono.error(new PeerGone(reason)))).toFuture();
        try {
            long graceEnds = 0;
            for (long left; (left = graceEnds == 0 ? deadline.remainingNanos() : graceEnds - System.nanoTime()) > 0; ) {
                try {
                    return answered(answer.get(Math.min(left, acts ? WITHDRAWAL_LOOK : left == Long.MAX_VALUE
                            ? STOPPED_DEADLINE_LOOK : left), TimeUnit.NANOSECONDS), what);
                } catch (TimeoutException stillWaiting) {
                    // the deadline may have stopped, started again or run out meanwhile, or the caller withdrawn
                    if (acts && graceEnds == 0 && withdrawal.happened()) {
                        graceEnds = System.nanoTime() + Math.min(CANCEL_GRACE.toNanos(), deadline.remainingNanos());
                    }
                }
            }
            answer.cancel(true);
            if (graceEnds != 0) {
                throw new McpServerException(McpServerException.Kind.WITHDRAWN, name() + " was asked to stop "
                        + what + " when its caller gave it up, and did not say whether it had acted, so its outcome is"
                        + " unknown");
            }
            throw failure(current, new TimeoutException(), timeout, what, acts);
        } catch (InterruptedException e) {
            answer.cancel(true);
            throw failure(current, e, timeout, what, acts);
        } catch (ExecutionException e) {
            throw failure(current, Exceptions.unwrap(e.getCause()), timeout, what, acts);
        }
    }

    /**
     * A call's caller may give it up while it runs (a host's cancellation behind the gateway): then its server is
     * asked to stop it, once.
     */
    private static final class Withdrawal {
        private final ToolCallRequest request;
        private final BooleanSupplier cancelAtServer;

        Withdrawal(ToolCallRequest request, BooleanSupplier cancelAtServer) {
            this.request = request;
            this.cancelAtServer = cancelAtServer;
        }

        /** True when the caller has withdrawn the call; its server has then been asked to stop it. */
        boolean happened() {
            if (!request.caller().withdrawn()) {
                return false;
            }
            try {
                if (!cancelAtServer.getAsBoolean()) {
                    LOG.log(Level.FINE, "a withdrawn call had not reached its server yet");
                }
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "telling a server that a call was cancelled failed: " + e.getMessage(), e);
            }
            return true;
        }
    }

    private <T> T answered(T answer, String what) {
        if (answer == null) {
            throw new McpServerException(McpServerException.Kind.INVALID_ANSWER, name() + " gave no answer to "
                    + what);
        }
        return answer;
    }

    /** Says what happened in words written here: a lower-level exception's text may carry anything. */
    private McpServerException failure(Session current, Throwable error, Duration timeout, String what,
                                       boolean acts) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof McpServerException known) {
                return known;
            }
            if (cause instanceof InterruptedException) {
                // the owner is closing (a finished "servers test", a shut-down refresh): nothing went wrong
                Thread.currentThread().interrupt();
                return new McpServerException(McpServerException.Kind.UNREACHABLE, name() + " was disconnected"
                        + " during " + what);
            }
            if (cause instanceof PeerGone gone) {
                current.lost().set(true);
                return McpServerException.stopped(name() + " stopped (" + gone.reason + ") during " + what
                        + (acts ? ", so its outcome is unknown" : "") + "; the next use starts it again", gone.reason);
            }
            if (cause instanceof TimeoutException) {
                return new McpServerException(McpServerException.Kind.TIMED_OUT, name() + " did not answer " + what
                        + " within " + describe(timeout)
                        + (acts ? "; it may still be working on it, so its outcome is unknown" : ""));
            }
            if (cause instanceof StreamableHttpTransport.StreamLost lost) {
                current.lost().set(true);
                return McpServerException.stopped(name() + " lost the connection during " + what + ": "
                        + lost.getMessage() + (acts ? "; its outcome is unknown" : "") + "; the next use connects again",
                        lost.getMessage());
            }
            if (cause instanceof StreamableHttpTransport.AuthorizationFailed refused) {
                return new McpServerException(McpServerException.Kind.UNAUTHORIZED, name() + " could not be"
                        + " authorized for " + what + ": " + refused.getMessage());
            }
            if (cause instanceof StreamableHttpTransport.RefusedStatus refused) {
                return refusedStatus(current, refused.status(), what);
            }
            if (cause instanceof McpError refused) {
                McpSchema.JSONRPCResponse.JSONRPCError said = refused.getJsonRpcError();
                return McpServerException.refused(server.name(), name() + " refused " + what + errorText(refused),
                        said == null ? McpSchema.ErrorCodes.INTERNAL_ERROR : said.code());
            }
            if (cause instanceof JacksonException || cause instanceof IllegalArgumentException) {
                return new McpServerException(McpServerException.Kind.INVALID_ANSWER, name() + " answered " + what
                        + " with something that is not valid MCP");
            }
        }
        current.lost().set(true);
        LOG.log(Level.WARNING, "server {0}: {1} failed with {2}", new Object[] {server.name(), what,
                error.getClass().getName()});
        return new McpServerException(McpServerException.Kind.UNREACHABLE, name() + " could not be reached for "
                + what + "; the next use connects again");
    }

    private McpServerException refusedStatus(Session current, int status, String what) {
        if (status == 401 || status == 403) {
            return new McpServerException(McpServerException.Kind.UNAUTHORIZED, name() + " refused access (HTTP "
                    + status + ") for " + what + ": check the credentials its record sends (a header such as"
                    + " Authorization=env:VARIABLE, and that variable's value)");
        }
        // 404 is how a server says it forgot the session: the next use starts a new one
        current.lost().set(true);
        return new McpServerException(McpServerException.Kind.UNREACHABLE, name() + " answered " + what
                + " with HTTP " + status + "; the next use connects again");
    }

    /** The server's own words about its refusal, like the text of a tool's error result. */
    private static String errorText(McpError refused) {
        McpSchema.JSONRPCResponse.JSONRPCError error = refused.getJsonRpcError();
        if (error == null || error.message() == null || error.message().isBlank()) {
            return "";
        }
        // one line for the person: a server's text may hold line breaks and terminal escapes
        String message = error.message().replaceAll("[\\s\\p{Cntrl}]+", " ").strip();
        if (message.length() > MAX_ERROR_TEXT) {
            message = message.substring(0, MAX_ERROR_TEXT) + "...";
        }
        return ": " + message + " (JSON-RPC error " + error.code() + ")";
    }

    private static Duration longer(Duration one, Duration other) {
        return one.compareTo(other) >= 0 ? one : other;
    }

    private static String describe(Duration timeout) {
        return timeout.toMillis() % 1000 == 0 ? timeout.toSeconds() + " s" : timeout.toMillis() + " ms";
    }

    private String name() {
        return "server \"" + server.name() + "\"";
    }

    private static void discard(Session old) {
        old.lost().set(true);
        try {
            old.client().closeGracefully().block(CLOSE_WAIT);
        } catch (RuntimeException e) {
            old.client().close();
        }
    }

    /** The transport reported its peer gone while a request was open. */
    private static final class PeerGone extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final String reason;

        PeerGone(String reason) {
            super(reason, null, false, false);
            this.reason = reason;
        }
    }
}
