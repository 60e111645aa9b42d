package io.countersign.tools.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import io.countersign.engine.tool.CallerChannel;
import io.countersign.engine.tool.ToolCallRequest;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The calls open on one server connection, and where what the server sends during them goes: its progress for a
 * call, by the progress token put on that call alone (only when its caller wants progress); its log messages and
 * requests, to the one call open, since MCP does not say which call they belong to. With several calls open, a
 * log message reaches no caller (it might be another's), a question is declined and a sampling request refused.
 * A request goes to the call's caller when it declared it can answer it (a host behind the gateway); otherwise a
 * question goes to the person behind the run ({@link McpElicitations}) and a sampling request is refused with the
 * reason, since no one else can answer it. The call's deadline stops while its caller answers.
 */
final class OpenCalls {
    private static final Logger LOG = Logger.getLogger(OpenCalls.class.getName());

    /**
     * A call waiting for its result, and whom its server's questions go to; {@code progressToken} null when its
     * caller wants no progress. Equal only to itself, hashed cheaply.
     */
    record OpenCall(ToolCallRequest request, CallDeadline deadline, String progressToken) {
        @Override
        public boolean equals(Object other) {
            return this == other;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(this);
        }
    }

    private final String serverName;
    private final Set<OpenCall> open = ConcurrentHashMap.newKeySet();
    private final Map<String, OpenCall> byProgressToken = new ConcurrentHashMap<>();
    private final AtomicLong tokens = new AtomicLong();

    OpenCalls(String serverName) {
        this.serverName = serverName;
    }

    /** A call starts, its deadline running from now. */
    OpenCall open(ToolCallRequest request, Duration timeout) {
        String token = request.caller().wantsProgress() ? "countersign-" + tokens.incrementAndGet() : null;
        OpenCall call = new OpenCall(request, new CallDeadline(timeout), token);
        open.add(call);
        if (token != null) {
            byProgressToken.put(token, call);
        }
        return call;
    }

    /** The call has its answer, or gave up: nothing the server sends reaches its caller from now on. */
    void close(OpenCall call) {
        open.remove(call);
        if (call.progressToken() != null) {
            byProgressToken.remove(call.progressToken());
        }
    }

    /** The deadlines of the calls open now. */
    List<CallDeadline> deadlines() {
        List<CallDeadline> all = new ArrayList<>();
        open.forEach(call -> all.add(call.deadline()));
        return all;
    }

    /** Declares what the client answers (form questions, sampling) and sets its handlers of what a server sends. */
    McpClient.AsyncSpec handling(McpClient.AsyncSpec client) {
        return client.capabilities(McpSchema.ClientCapabilities.builder().elicitation(true, false).sampling().build())
                .progressConsumer(this::progress).loggingConsumer(this::log)
                .elicitation(this::elicit).applyElicitationDefaults(true)
                .sampling(this::sample);
    }

    /** A progress notification for a token of ours goes to that call's caller; any other is the server's mistake. */
    private Mono<Void> progress(McpSchema.ProgressNotification notification) {
        OpenCall call = notification.progressToken() instanceof String token ? byProgressToken.get(token) : null;
        if (call == null || notification.progress() == null) {
            LOG.log(Level.FINE, "server {0} sent progress for no open call of ours", serverName);
            return Mono.empty();
        }
        call.request().caller().progress(notification.progress(), notification.total(), notification.message());
        return Mono.empty();
    }

    /** A log message goes to the caller of the one call open, if one is. */
    private Mono<Void> log(McpSchema.LoggingMessageNotification message) {
        List<OpenCall> calls = List.copyOf(open);
        if (calls.size() != 1) {
            LOG.log(Level.FINE, "server {0} sent a log message while {1} calls were open; not passed on",
                    new Object[] {serverName, calls.size()});
            return Mono.empty();
        }
        calls.get(0).request().caller().log(McpJsonDefaults.getMapper().convertValue(message, JsonNode.class));
        return Mono.empty();
    }

    /**
     * A server's question during a call: to the caller of the one call open when it answers questions, else asked
     * of the person behind that call; declined when no single call is open to ask for.
     */
    private Mono<McpSchema.ElicitResult> elicit(McpSchema.ElicitFormRequest request) {
        List<OpenCall> calls = List.copyOf(open);
        if (calls.size() == 1 && calls.get(0).request().caller().answers(CallerChannel.Request.ELICITATION)) {
            return relayed(calls.get(0), CallerChannel.Request.ELICITATION, request, McpSchema.ElicitResult.class);
        }
        return Mono.fromCallable(() -> {
            if (calls.size() != 1) {
                LOG.log(Level.INFO, "server {0} asked for input while {1} calls were open; declined",
                        new Object[] {serverName, calls.size()});
                return McpElicitations.answer(request, null);
            }
            CallDeadline deadline = calls.get(0).deadline();
            deadline.pause();
            try {
                return McpElicitations.answer(request, calls.get(0).request());
            } finally {
                deadline.resume();
            }
        }).subscribeOn(Schedulers.boundedElastic());
    }

    /** A server's sampling request during a call: to the caller of the one call open, when it can answer it. */
    private Mono<McpSchema.CreateMessageResult> sample(McpSchema.CreateMessageRequest request) {
        CallerChannel.Request kind = CallerChannel.Request.SAMPLING;
        List<OpenCall> calls = List.copyOf(open);
        if (calls.size() != 1) {
            return Mono.error(refusal(calls.isEmpty()
                    ? kind.method() + " arrived while no call of Countersign's was open on this connection"
                    : "Countersign cannot tell which of the " + calls.size() + " calls open on this connection sent "
                    + kind.method() + ", so it answers none"));
        }
        if (!calls.get(0).request().caller().answers(kind)) {
            return Mono.error(refusal("no one can answer " + kind.method() + " for this call: Countersign passes a"
                    + " server's sampling request on only to an MCP host that made the call through its gateway and"
                    + " declared the sampling capability"));
        }
        return relayed(calls.get(0), kind, request, McpSchema.CreateMessageResult.class);
    }

    /** The caller's answer to the server's request, the call's deadline stopped while it answers. */
    private static <T> Mono<T> relayed(OpenCall call, CallerChannel.Request kind, Object request, Class<T> result) {
        McpJsonMapper json = McpJsonDefaults.getMapper();
        JsonNode params = json.convertValue(request, JsonNode.class);
        return Mono.defer(() -> {
            call.deadline().pause();
            return Mono.fromFuture(call.request().caller().ask(kind, params))
                    .doFinally(signal -> call.deadline().resume());
        }).map(answer -> json.convertValue(answer, result));
    }

    private McpError refusal(String reason) {
        LOG.log(Level.INFO, "server {0}: {1}", new Object[] {serverName, reason});
        return McpError.builder(McpSchema.ErrorCodes.INVALID_REQUEST).message(reason).build();
    }
}
