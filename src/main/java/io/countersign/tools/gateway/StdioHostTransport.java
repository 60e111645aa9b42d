package io.countersign.tools.gateway;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import reactor.core.publisher.Mono;

/**
 * The host's stdio connection: newline-delimited JSON-RPC on standard input and output, one session. Each line is
 * parsed and handed to the session on the thread that reads it, and each message is written on the thread that
 * sends it (a call's answer mostly on the thread that read the server's). The SDK's stdio provider queues every
 * message it sends for a thread of its own, a hand-off on each call's way back to the host (see the gateway
 * benchmark in docs/benchmarks.md).
 */
final class StdioHostTransport implements McpServerTransportProvider {
    private static final Logger LOG = Logger.getLogger(StdioHostTransport.class.getName());

    private final McpJsonMapper json;
    private final InputStream in;
    private final OutputStream out;
    private final Runnable ended;
    private final BiConsumer<String, Object> cancelled;
    private final AnsweredHere answered;
    private final AtomicBoolean closing = new AtomicBoolean();
    /** Set once the host sent initialize; only the reading thread writes it. */
    private volatile boolean initializing;
    private volatile McpServerSession session;

    /**
     * @param ended     told once, on the reading thread, when the host closed standard input or it failed
     * @param cancelled told the session's id and the id (as the host wrote it) of each request the host cancelled
     *                  ({@code notifications/cancelled}), on the reading thread; the SDK's session has no handler
     *                  for that notification
     * @param answered  answers the host's requests the SDK does not know (tasks) or cannot pass on (a resource's
     *                  subscription, a completion)
     */
    StdioHostTransport(McpJsonMapper json, InputStream in, OutputStream out, Runnable ended,
                       BiConsumer<String, Object> cancelled, AnsweredHere answered) {
        this.json = json;
        this.in = in;
        this.out = out;
        this.ended = ended;
        this.cancelled = cancelled;
        this.answered = answered;
    }

    @Override
    public void setSessionFactory(McpServerSession.Factory factory) {
        session = factory.create(new SessionTransport());
        Thread reader = new Thread(this::readLines, "countersign-gateway-stdin");
        reader.setDaemon(true);
        reader.start();
    }

    private void readLines() {
        try {
            ByteArrayOutputStream line = new ByteArrayOutputStream(4096);
            byte[] buffer = new byte[8192];
            int read;
            while (!closing.get() && (read = in.read(buffer)) >= 0) {
                int start = 0;
                for (int i = 0; i < read; i++) {
                    if (buffer[i] == '\n') {
                        line.write(buffer, start, i - start);
                        handle(line.toString(StandardCharsets.UTF_8));
                        line.reset();
                        start = i + 1;
                    }
                }
                line.write(buffer, start, read - start);
                if (line.size() > HostMessage.MAX_BYTES) {
                    String why = "the host sent a message longer than " + HostMessage.MAX_BYTES + " bytes; the"
                            + " connection ends";
                    LOG.warning(why);
                    write(JsonRpcErrors.error(null, McpSchema.ErrorCodes.INVALID_REQUEST, "Invalid request: " + why));
                    break;
                }
            }
        } catch (IOException e) {
            if (!closing.get()) {
                LOG.log(Level.WARNING, "reading the host's messages failed: " + e.getMessage(), e);
            }
        } finally {
            closing.set(true);
            session.close();
            ended.run();
        }
    }

    private void handle(String line) {
        if (line.isBlank()) {
            return;
        }
        // JSON-RPC's answer to a line that is not a message of its shape; the connection goes on
        HostMessage read = HostMessage.read(line);
        if (read instanceof HostMessage.Refused refused) {
            write(refused.error());
            return;
        }
        HostMessage.Accepted accepted = (HostMessage.Accepted) read;
        initializing |= McpSchema.METHOD_INITIALIZE.equals(accepted.method());
        if (!initializing && accepted.method() != null && accepted.id() != null) {
            // the SDK holds every request, a ping too, until the session has started; before initialize, forever
            write(McpSchema.METHOD_PING.equals(accepted.method())
                    ? McpSchema.JSONRPCResponse.result(json.convertValue(accepted.id(), Object.class), Map.of())
                    : JsonRpcErrors.error(accepted.id(), McpSchema.ErrorCodes.INVALID_REQUEST, "Invalid request: "
                    + accepted.method() + " before initialize; send initialize first"));
            return;
        }
        if (HostRequests.CANCELLED.equals(accepted.method())) {
            ObjectNode params = accepted.params();
            if (params != null && params.hasNonNull("requestId")) {
                cancelled.accept(session.getId(), params.get("requestId"));
            }
            return;
        }
        Optional<CompletableFuture<ObjectNode>> here = answered.answer(session.getId(), accepted);
        if (here.isPresent()) {
            // tasks/result may wait for a person, a subscription for a server: the answer is written when it comes
            here.get().thenAccept(answer -> {
                if (!closing.get()) {
                    write(answer);
                }
            }).exceptionally(failure -> {
                LOG.log(Level.WARNING, "answering a host's request failed: " + failure.getMessage(), failure);
                return null;
            });
            return;
        }
        McpSchema.JSONRPCMessage message;
        try {
            message = McpSchema.deserializeJsonRpcMessage(json, line);
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.FINE, "the SDK could not read a host's message", e);
            write(JsonRpcErrors.error(accepted.id(), McpSchema.ErrorCodes.INVALID_REQUEST,
                    "Invalid request: the message is not one MCP knows"));
            return;
        }
        Mono<Void> handled = session.handle(message);
        if (message instanceof McpSchema.JSONRPCRequest request && request.id() != null) {
            handled = handled.contextWrite(context -> context.put(McpTransportContext.KEY,
                    HostRequests.context(request.id())));
        }
        handled.subscribe(null, failure -> LOG.log(Level.WARNING, "handling a host's message failed: "
                + failure.getMessage(), failure));
    }

    private void write(Object message) {
        byte[] bytes;
        try {
            bytes = json.writeValueAsBytes(message);
        } catch (IOException e) {
            throw new IllegalStateException("a message to the host could not be written as JSON: " + e.getMessage(),
                    e);
        }
        synchronized (out) {
            try {
                out.write(bytes);
                out.write('\n');
                out.flush();
            } catch (IOException e) {
                throw new IllegalStateException("the host's standard output is closed: " + e.getMessage(), e);
            }
        }
    }

    @Override
    public Mono<Void> notifyClients(String method, Object params) {
        McpServerSession current = session;
        return current == null ? Mono.error(new IllegalStateException("no host is connected"))
                : current.sendNotification(method, params);
    }

    @Override
    public Mono<Void> notifyClient(String sessionId, String method, Object params) {
        McpServerSession current = session;
        if (current == null || !current.getId().equals(sessionId)) {
            return Mono.error(new IllegalStateException("no host session " + sessionId));
        }
        return current.sendNotification(method, params);
    }

    @Override
    public Mono<Void> closeGracefully() {
        McpServerSession current = session;
        return current == null ? Mono.empty() : current.closeGracefully();
    }

    private final class SessionTransport implements McpServerTransport {
        @Override
        public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
            return Mono.fromRunnable(() -> {
                if (!closing.get()) {
                    write(message);
                }
            });
        }

        @Override
        public <T> T unmarshalFrom(Object data, TypeRef<T> type) {
            return json.convertValue(data, type);
        }

        @Override
        public Mono<Void> closeGracefully() {
            return Mono.fromRunnable(() -> closing.set(true));
        }

        @Override
        public void close() {
            closing.set(true);
        }
    }
}
