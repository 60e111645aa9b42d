package io.countersign.tools.mcp;

import io.countersign.tools.mcp.oauth.OAuthAuthorizer;
import io.countersign.tools.mcp.oauth.OAuthException;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.ProtocolVersions;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;

/**
 * MCP over Streamable HTTP, on the JDK's HTTP client. Each message is a POST; the server answers with JSON or with
 * an event stream. When a stream that should still carry a request's answer ends, the transport resumes it as the
 * specification says: it waits the {@code retry} time the server set, then asks with {@code GET} and
 * {@code Last-Event-ID} for the rest. When it cannot (no event id, the server is gone, the server refuses), the
 * request fails at once with {@link StreamLost}, since the server may have acted on it.
 */
final class StreamableHttpTransport implements McpClientTransport {
    static final Duration DEFAULT_RETRY = Duration.ofSeconds(1);
    /** A server that keeps dropping one request's stream is given up on after this many resumptions. */
    static final int MAX_RESUMES = 5;
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(2);
    private static final String SESSION_HEADER = "Mcp-Session-Id";
    private static final String EVENT_STREAM = "text/event-stream";
    private static final Logger LOG = Logger.getLogger(StreamableHttpTransport.class.getName());

    /** The connection broke while a request was open, and its answer cannot be had any more. */
    static final class StreamLost extends RuntimeException {
        private static final long serialVersionUID = 1L;

        StreamLost(String reason) {
            super(reason, null, false, false);
        }
    }

    /** The OAuth sign-in or token request for the server failed; the message says why. */
    static final class AuthorizationFailed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        AuthorizationFailed(String reason) {
            super(reason, null, false, false);
        }
    }

    /** The server answered with an HTTP status that is not success. */
    static final class RefusedStatus extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final int status;

        RefusedStatus(int status) {
            super("HTTP " + status, null, false, false);
            this.status = status;
        }

        int status() {
            return status;
        }
    }

    private final String server;
    private final URI url;
    private final HttpRequest.Builder template;
    private final McpJsonMapper json;
    /** Signs in and keeps the token for a server that wants OAuth; null when the record sends its own credentials. */
    private final OAuthAuthorizer authorizer;
    private final HttpClient http;
    private final ExecutorService readers;
    private final Set<InputStream> openBodies = ConcurrentHashMap.newKeySet();
    private final Set<Object> answered = ConcurrentHashMap.newKeySet();
    private volatile Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler;
    private volatile String sessionId;
    private volatile String protocolVersion = ProtocolVersions.MCP_2025_11_25;
    private volatile boolean closed;

    /** {@code template} carries the record's headers with their secrets resolved; it is copied for each request. */
    StreamableHttpTransport(String server, URI url, HttpRequest.Builder template, Duration connectTimeout,
                            McpJsonMapper json, OAuthAuthorizer authorizer) {
        this.server = server;
        this.authorizer = authorizer;
        this.url = url;
        this.template = template;
        this.json = json;
        this.http = HttpClient.newBuilder().connectTimeout(connectTimeout).build();
        this.readers = Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "mcp-" + server + "-http");
            thread.setDaemon(true);
            return thread;
        });
    }

    @Override
    public Mono<Void> connect(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
        this.handler = handler;
        return Mono.empty();
    }

    @Override
    public Mono<Void> sendMessage(JSONRPCMessage message) {
        return Mono.deferContextual(context -> {
            protocolVersion = context.getOrDefault(McpAsyncClient.NEGOTIATED_PROTOCOL_VERSION, protocolVersion);
            return Mono.<Void>create(sink -> readers.execute(() -> post(message, sink)));
        });
    }

    private void post(JSONRPCMessage message, MonoSink<Void> sink) {
        Object requestId = message instanceof McpSchema.JSONRPCRequest request ? request.id() : null;
        HttpResponse<InputStream> response;
        try {
            String body = json.writeValueAsString(message);
            response = authorized(body);
        } catch (ConnectException | HttpConnectTimeoutException e) {
            sink.error(e); // nothing reached the server
            return;
        } catch (IOException e) {
            sink.error(requestId == null ? e : new StreamLost("the connection broke before it answered"));
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            sink.error(new StreamLost("the transport was closed"));
            return;
        } catch (OAuthException e) {
            sink.error(new AuthorizationFailed(e.getMessage())); // the server refused it unread
            return;
        }
        boolean initializing = message instanceof McpSchema.JSONRPCRequest request
                && McpSchema.METHOD_INITIALIZE.equals(request.method());
        try {
            answer(response, requestId, sink);
        } finally {
            if (requestId != null) {
                answered.remove(requestId);
            }
            if (initializing && sessionId != null && response.statusCode() / 100 == 2 && !closed) {
                // the server may send requests and notifications of its own on a stream it keeps open
                readers.execute(this::listen);
            }
        }
    }

    /** Posts a message, through the OAuth sign-in and step-up when the server wants them. */
    private HttpResponse<InputStream> authorized(String body) throws IOException, InterruptedException {
        OAuthAuthorizer.Exchange<InputStream> post = token -> http.send(request(token)
                .header("Accept", "application/json, " + EVENT_STREAM).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        return authorizer == null ? post.send(Optional.empty())
                : authorizer.exchange(post, response -> discard(response.body()));
    }

    private void answer(HttpResponse<InputStream> response, Object requestId, MonoSink<Void> sink) {
        int status = response.statusCode();
        response.headers().firstValue(SESSION_HEADER).ifPresent(id -> {
            if (sessionId == null) {
                sessionId = id;
            }
        });
        String type = response.headers().firstValue("Content-Type").orElse("").toLowerCase(java.util.Locale.ROOT);
        if (status / 100 != 2) {
            discard(response.body());
            sink.error(new RefusedStatus(status));
        } else if (status == 202 || requestId == null && !type.contains(EVENT_STREAM)) {
            discard(response.body());
            sink.success();
        } else if (type.contains(EVENT_STREAM)) {
            follow(response.body(), requestId, sink);
        } else if (type.contains("application/json")) {
            try (InputStream body = response.body()) {
                deliver(McpSchema.deserializeJsonRpcMessage(json, new String(body.readAllBytes(),
                        StandardCharsets.UTF_8)));
                sink.success();
            } catch (IOException e) {
                sink.error(new StreamLost("the connection broke while it answered"));
            } catch (RuntimeException e) {
                sink.error(new IllegalArgumentException("not a JSON-RPC message", e));
            }
        } else {
            discard(response.body());
            sink.error(new IllegalArgumentException("an answer of content type \"" + type + "\""));
        }
    }

    /** Reads a request's event stream until its answer came, resuming the stream when it ends too early. */
    private void follow(InputStream first, Object requestId, MonoSink<Void> sink) {
        SseReader.Cursor cursor = new SseReader.Cursor(DEFAULT_RETRY);
        InputStream body = first;
        int resumes = 0;
        try {
            while (true) {
                boolean done = read(body, requestId, cursor);
                if (done || requestId == null || answered.contains(requestId)) {
                    sink.success();
                    return;
                }
                if (closed) {
                    sink.error(new StreamLost("the transport was closed"));
                    return;
                }
                if (cursor.lastId() == null) {
                    sink.error(new StreamLost("the stream ended before the answer, with no event id to resume"
                            + " from"));
                    return;
                }
                if (resumes++ == MAX_RESUMES) {
                    sink.error(new StreamLost("the stream was dropped " + MAX_RESUMES + " times in a row"));
                    return;
                }
                body = resume(cursor);
            }
        } catch (StreamLost lost) {
            sink.error(lost);
        }
    }

    /** The server's standalone stream, reopened while it lets us; it ends quietly when it cannot be had. */
    private void listen() {
        SseReader.Cursor cursor = new SseReader.Cursor(DEFAULT_RETRY);
        try {
            InputStream body = open(null);
            for (int resumes = 0; body != null && !closed && resumes <= MAX_RESUMES; resumes++) {
                read(body, null, cursor);
                body = closed ? null : resume(cursor);
            }
        } catch (StreamLost | RefusedStatus ended) {
            LOG.log(Level.FINE, "server {0}: its standalone stream ended ({1})", new Object[] {server,
                    ended.getMessage()});
        }
    }

    /** Waits the server's retry time, then asks for the events after the last one seen. */
    private InputStream resume(SseReader.Cursor cursor) {
        try {
            Thread.sleep(cursor.retry().toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StreamLost("the transport was closed");
        }
        InputStream body = open(cursor.lastId());
        if (body == null) {
            throw new StreamLost("the stream could not be resumed: HTTP 405");
        }
        return body;
    }

    /** A GET stream, or null when the server offers none (405); {@code lastId} asks to resume after it. */
    private InputStream open(String lastId) {
        HttpRequest.Builder get = request().header("Accept", EVENT_STREAM).GET();
        if (lastId != null) {
            get.header("Last-Event-ID", lastId);
        }
        HttpResponse<InputStream> response;
        try {
            response = http.send(get.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw new StreamLost("the stream could not be resumed: " + describe(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StreamLost("the transport was closed");
        }
        if (response.statusCode() == 405) {
            discard(response.body());
            return null;
        }
        String type = response.headers().firstValue("Content-Type").orElse("");
        if (response.statusCode() / 100 != 2 || !type.toLowerCase(java.util.Locale.ROOT).contains(EVENT_STREAM)) {
            discard(response.body());
            throw new StreamLost("the stream could not be resumed: HTTP " + response.statusCode());
        }
        return response.body();
    }

    /** Reads events until the stream ends or brings the answer to {@code requestId}; true when it did. */
    private boolean read(InputStream body, Object requestId, SseReader.Cursor cursor) {
        openBodies.add(body);
        try (SseReader events = new SseReader(body, cursor)) {
            String data;
            while ((data = events.next()) != null) {
                JSONRPCMessage message;
                try {
                    message = McpSchema.deserializeJsonRpcMessage(json, data);
                } catch (IOException | RuntimeException e) {
                    LOG.log(Level.FINE, "server {0}: an event that is not JSON-RPC was skipped", server);
                    continue;
                }
                deliver(message);
                if (requestId != null && message instanceof McpSchema.JSONRPCResponse response
                        && requestId.equals(response.id())) {
                    return true;
                }
            }
            return false;
        } catch (IOException e) {
            return false; // the stream broke; the caller resumes it or gives up
        } finally {
            openBodies.remove(body);
        }
    }

    private void deliver(JSONRPCMessage message) {
        if (message instanceof McpSchema.JSONRPCResponse response) {
            answered.add(response.id());
        }
        Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> current = handler;
        if (current == null) {
            return;
        }
        current.apply(Mono.just(message)).subscribe(ignored -> {
        }, error -> LOG.log(Level.FINE, "server {0}: a message could not be handled ({1})",
                new Object[] {server, error.getClass().getName()}));
    }

    private HttpRequest.Builder request() {
        return request(authorizer == null ? Optional.empty() : authorizer.bearer());
    }

    private HttpRequest.Builder request(Optional<String> token) {
        HttpRequest.Builder builder = template.copy().uri(url).header("MCP-Protocol-Version", protocolVersion);
        token.ifPresent(value -> builder.header("Authorization", "Bearer " + value));
        String session = sessionId;
        if (session != null) {
            builder.header(SESSION_HEADER, session);
        }
        return builder;
    }

    @Override
    public Mono<Void> closeGracefully() {
        return Mono.<Void>fromRunnable(() -> {
            closed = true;
            openBodies.forEach(StreamableHttpTransport::discard);
            if (sessionId != null) {
                try {
                    // ends the session on the server; a server that does not support this answers 405
                    http.send(request().timeout(CLOSE_WAIT).DELETE().build(), HttpResponse.BodyHandlers.discarding());
                } catch (IOException e) {
                    LOG.log(Level.FINE, "server {0}: the session could not be ended ({1})",
                            new Object[] {server, e.getClass().getName()});
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            readers.shutdownNow();
        }).subscribeOn(reactor.core.scheduler.Schedulers.boundedElastic());
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
        return json.convertValue(data, typeRef);
    }

    @Override
    public List<String> protocolVersions() {
        return List.of(ProtocolVersions.MCP_2024_11_05, ProtocolVersions.MCP_2025_03_26,
                ProtocolVersions.MCP_2025_06_18, ProtocolVersions.MCP_2025_11_25);
    }

    private static String describe(IOException e) {
        return e instanceof ConnectException ? "connection refused"
                : e instanceof HttpConnectTimeoutException ? "no connection in time" : "the connection failed";
    }

    private static void discard(InputStream body) {
        try {
            body.close();
        } catch (IOException e) {
            // a body that cannot be closed has nothing more to give
        }
    }
}
