package io.countersign.tools.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Json;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.transport.DefaultServerTransportSecurityValidator;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.BindException;
import java.net.Inet6Address;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.jetty.ee11.servlet.FilterHolder;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.LocalConnector;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * The gateway over Streamable HTTP: the SDK's servlet transport in an embedded Jetty on a loopback address, at
 * {@code /mcp}. Each MCP session is a host connection of its own; a session the host deletes ends its run as a
 * disconnect does, and so does one whose host shows no sign of life for the idle time ({@link HostActivity}): the
 * gateway deletes it as the host would have, so that a later request naming it is answered 404. A request without
 * the gateway's bearer token ({@link GatewayToken}) is refused with 401; one whose {@code Origin} is not the
 * gateway's own (a web page's, the DNS rebinding attack) with 403, and so is one whose {@code Host} does not name
 * the loopback address (421). Every refusal and error is a JSON-RPC error object naming its cause
 * ({@link ProtocolGate}), never what a Java exception said.
 */
public final class HttpGatewayListener implements AutoCloseable {
    /** The path the MCP endpoint is served at. */
    public static final String ENDPOINT = "/mcp";
    private static final Logger LOG = Logger.getLogger(HttpGatewayListener.class.getName());
    /** The header that names a host's session. */
    static final String SESSION_HEADER = "Mcp-Session-Id";

    private final Server jetty;
    private final McpGateway gateway;
    private final HostActivity activity;
    private final URI url;

    private HttpGatewayListener(Server jetty, McpGateway gateway, HostActivity activity, URI url) {
        this.jetty = jetty;
        this.gateway = gateway;
        this.activity = activity;
        this.url = url;
    }

    /**
     * Binds the address and serves the backend there until {@link #close}.
     *
     * @param idleAfter how long a host's session may show no sign of life (no request, no open stream) before it
     *                  ends as a disconnect; keep-alive pings every third of it find a dead host's GET stream
     * @param token     what every request must carry as {@code Authorization: Bearer TOKEN}
     * @throws IllegalArgumentException when the port is in use or the address cannot be bound
     */
    public static HttpGatewayListener start(ListenAddress address, GatewayBackend backend, Duration progressEvery,
                                            Duration idleAfter, GatewayToken token) {
        Server jetty = new Server();
        // what the server itself answers (a request it cannot parse) names no servlet and no version either
        jetty.setErrorHandler(new PlainErrors());
        ServerConnector connector = new ServerConnector(jetty);
        connector.setHost(address.address().getHostAddress());
        connector.setPort(address.port());
        jetty.addConnector(connector);
        // In-process only: the gateway deletes an idle session through the SDK's own DELETE handling.
        LocalConnector local = new LocalConnector(jetty);
        jetty.addConnector(local);
        try {
            // Bound first: the allowed Origin and Host name the real port, which port 0 only tells once bound.
            connector.open();
        } catch (IOException e) {
            throw new IllegalArgumentException(bindFailure(address, e), e);
        }
        String authority = authority(address, connector.getLocalPort());
        HostCapabilities capabilities = new HostCapabilities();
        HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider
                .builder().jsonMapper(new CleanErrorsMapper(McpJsonDefaults.getMapper(), capabilities))
                .mcpEndpoint(ENDPOINT)
                .maxRequestSize(HostMessage.MAX_BYTES)
                .securityValidator(DefaultServerTransportSecurityValidator.builder()
                        .allowedOrigins(List.of("http://" + authority, "http://localhost:" + connector.getLocalPort()))
                        .allowedHosts(List.of(authority, "localhost:" + connector.getLocalPort()))
                        .build())
                .keepAliveInterval(idleAfter.dividedBy(3))
                // a call's handler learns its request's id, by which the host may cancel it
                .contextExtractor(request -> {
                    Object id = request.getAttribute(ProtocolGate.ID_ATTRIBUTE);
                    return id == null ? McpTransportContext.EMPTY : HostRequests.context(id);
                })
                .build();
        McpGateway gateway = McpGateway.streamable(backend, transport, progressEvery, capabilities);
        HostActivity activity = new HostActivity(idleAfter, session -> delete(local, authority, token, session,
                gateway));
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        ServletHolder servlet = new ServletHolder(transport);
        servlet.setAsyncSupported(true);
        context.addServlet(servlet, ENDPOINT);
        // on every path, so that a request for another one is answered as cleanly as one for the endpoint
        addFilter(context, new BearerGate(token), "/*");
        addFilter(context, new ProtocolGate(), "/*");
        addFilter(context, new SessionEnds(gateway), ENDPOINT);
        addFilter(context, new Cancellations(gateway), ENDPOINT);
        addFilter(context, activity, ENDPOINT);
        addFilter(context, new AnsweredRequests(gateway), ENDPOINT);
        jetty.setHandler(context);
        try {
            jetty.start();
        } catch (Exception e) {
            activity.close();
            gateway.close();
            throw new IllegalStateException("the gateway's HTTP server did not start: " + e.getMessage(), e);
        }
        return new HttpGatewayListener(jetty, gateway, activity, URI.create("http://" + authority + ENDPOINT));
    }

    /** Adds a filter for the path, after those added before it. */
    private static void addFilter(ServletContextHandler context, Filter filter, String path) {
        FilterHolder holder = new FilterHolder(filter);
        holder.setAsyncSupported(true);
        context.addFilter(holder, path, EnumSet.of(DispatcherType.REQUEST));
    }

    /**
     * Deletes an idle host's session as the host's own {@code DELETE} would: the SDK forgets it, so that a later
     * request naming it is answered 404; then its run ends (already, through {@link SessionEnds}, unless the SDK
     * had dropped the session before).
     */
    private static void delete(LocalConnector local, String authority, GatewayToken token, String session,
                               McpGateway gateway) {
        try {
            local.getResponse("DELETE " + ENDPOINT + " HTTP/1.1\r\nHost: " + authority + "\r\nAuthorization: Bearer "
                    + token.value() + "\r\n" + SESSION_HEADER + ": " + session + "\r\nConnection: close\r\n\r\n", 10,
                    TimeUnit.SECONDS);
        } catch (Exception e) {
            LOG.log(Level.WARNING, "deleting the idle session " + session + " failed: " + e.getMessage(), e);
        } finally {
            gateway.sessionEnded(session);
        }
    }

    private static String bindFailure(ListenAddress address, IOException e) {
        String where = address.host() + ":" + address.port();
        Throwable cause = e instanceof BindException ? e : e.getCause();
        return cause instanceof BindException
                ? "cannot listen on " + where + ": the port is already in use (port 0 picks a free one)"
                : "cannot listen on " + where + ": " + e.getMessage();
    }

    private static String authority(ListenAddress address, int port) {
        String host = address.address().getHostAddress();
        return (address.address() instanceof Inet6Address ? "[" + host + "]" : host) + ":" + port;
    }

    /** The MCP endpoint's URL, with the port really bound. */
    public URI url() {
        return url;
    }

    /** Waits until the gateway is stopped. */
    public void awaitClosed() throws InterruptedException {
        gateway.awaitClosed();
    }

    /** Ends every open session as a disconnect: their runs end, their waiting cards take no decision. */
    public void hostGone() {
        gateway.hostGone();
    }

    @Override
    public void close() {
        activity.close();
        gateway.close();
        try {
            jetty.stop();
        } catch (Exception e) {
            LOG.log(Level.WARNING, "the gateway's HTTP server did not stop cleanly: " + e.getMessage(), e);
        }
    }

    /** The server's own answer to a request that never reached the endpoint: the status, in a JSON-RPC error. */
    private static final class PlainErrors extends ErrorHandler {
        @Override
        protected void generateResponse(Request request, Response response, int code, String message, Throwable cause,
                                        Callback callback) {
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
            String reason = HttpStatus.getMessage(code);
            boolean ours = code >= 500 && code != HttpStatus.HTTP_VERSION_NOT_SUPPORTED_505;
            response.write(true, ByteBuffer.wrap(JsonRpcErrors.error(null, ours
                            ? McpSchema.ErrorCodes.INTERNAL_ERROR : McpSchema.ErrorCodes.INVALID_REQUEST,
                            "HTTP " + code + " " + reason + ": the request is not one the gateway can read")
                    .toString().getBytes(StandardCharsets.UTF_8)), callback);
        }
    }

    /**
     * Tells the gateway of a host's {@code notifications/cancelled}, for which the SDK has no handler: the call it
     * names is withdrawn. The SDK then accepts the notification as any other.
     */
    private record Cancellations(McpGateway gateway) implements Filter {
        @Override
        public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
                throws IOException, ServletException {
            String session = ((HttpServletRequest) request).getHeader(SESSION_HEADER);
            if (session != null && HostRequests.CANCELLED.equals(request.getAttribute(ProtocolGate.METHOD_ATTRIBUTE))
                    && request.getAttribute(ProtocolGate.PARAMS_ATTRIBUTE) instanceof JsonNode params
                    && params.hasNonNull("requestId")) {
                gateway.cancelled(session, params.get("requestId"));
            }
            chain.doFilter(request, response);
        }
    }

    /**
     * Answers a host's requests that the SDK does not know or cannot pass on ({@link AnsweredHere}: tasks, a
     * resource's subscription, a completion) as a JSON body; a {@code tasks/result} that waits for a person holds
     * the request open without a thread. A request naming a session the gateway does not hold goes on to the SDK,
     * which answers it as for any method.
     */
    private record AnsweredRequests(McpGateway gateway) implements Filter {
        @Override
        public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
                throws IOException, ServletException {
            String session = ((HttpServletRequest) request).getHeader(SESSION_HEADER);
            Optional<CompletableFuture<ObjectNode>> answer = session == null || !gateway.connected(session)
                    || !(request.getAttribute(ProtocolGate.METHOD_ATTRIBUTE) instanceof String method)
                    || !(request.getAttribute(ProtocolGate.ID_ATTRIBUTE) instanceof JsonNode id)
                    ? Optional.empty() : gateway.answeredHere().answer(session, new HostMessage.Accepted(
                    message(method, id, request.getAttribute(ProtocolGate.PARAMS_ATTRIBUTE))));
            if (answer.isEmpty()) {
                chain.doFilter(request, response);
                return;
            }
            AsyncContext async = request.startAsync();
            async.setTimeout(0);
            answer.get().whenComplete((json, failure) -> {
                try {
                    HttpServletResponse http = (HttpServletResponse) async.getResponse();
                    if (failure != null) {
                        LOG.log(Level.WARNING, "answering a host's request failed: " + failure.getMessage(),
                                failure);
                        http.sendError(HttpServletResponse.SC_INTERNAL_SERVER_ERROR);
                    } else {
                        byte[] body = json.toString().getBytes(StandardCharsets.UTF_8);
                        http.setStatus(HttpServletResponse.SC_OK);
                        http.setContentType("application/json");
                        http.setContentLength(body.length);
                        http.getOutputStream().write(body);
                    }
                } catch (IOException | RuntimeException e) {
                    LOG.log(Level.FINE, "the host did not take an answer: " + e.getMessage(), e);
                } finally {
                    async.complete();
                }
            });
        }

        private static ObjectNode message(String method, JsonNode id, Object params) {
            ObjectNode message = Json.mapper().createObjectNode().put("jsonrpc", McpSchema.JSONRPC_VERSION)
                    .put("method", method);
            message.set("id", id);
            if (params instanceof ObjectNode given) {
                message.set("params", given);
            }
            return message;
        }
    }

    /** Tells the gateway when the SDK has deleted a host's session: that host's run ends, no other's. */
    private record SessionEnds(McpGateway gateway) implements Filter {
        @Override
        public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
                throws IOException, ServletException {
            chain.doFilter(request, response);
            HttpServletRequest http = (HttpServletRequest) request;
            String session = http.getHeader(SESSION_HEADER);
            // The SDK deletes the session before it answers, and answers a deletion it refused with an error.
            if ("DELETE".equals(http.getMethod()) && session != null
                    && ((HttpServletResponse) response).getStatus() < 300) {
                gateway.sessionEnded(session);
            }
        }
    }
}
