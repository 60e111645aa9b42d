package io.countersign.tools.gateway;

import io.modelcontextprotocol.spec.McpSchema;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What an HTTP host's request must be before the SDK's servlet sees it, checked here so that each refusal is a
 * JSON-RPC error naming its cause with the right code: the headers Streamable HTTP asks for, and a POST body that
 * is one JSON-RPC message ({@link HostMessage}), read once (at most {@link HostMessage#MAX_BYTES}) and handed on
 * to be read again. Every response then passes through a {@link CleanErrorResponse}, so that no error the SDK or
 * the container writes leaves with a Java exception in it.
 *
 * <p>A POST's message is told to the filters and servlet after this one in three request attributes:
 * {@link #METHOD_ATTRIBUTE}, {@link #ID_ATTRIBUTE} and {@link #PARAMS_ATTRIBUTE}.
 */
final class ProtocolGate implements Filter {
    /** The method of the JSON-RPC request or notification a POST carries (a {@code String}); absent for a response. */
    static final String METHOD_ATTRIBUTE = "countersign.jsonrpc.method";
    /** The id of the JSON-RPC request or response a POST carries (a Jackson {@code JsonNode}, text or integer). */
    static final String ID_ATTRIBUTE = "countersign.jsonrpc.id";
    /** The params of the JSON-RPC request or notification a POST carries (a Jackson {@code ObjectNode}). */
    static final String PARAMS_ATTRIBUTE = "countersign.jsonrpc.params";

    private static final Logger LOG = Logger.getLogger(ProtocolGate.class.getName());
    private static final String EVENT_STREAM = "text/event-stream";
    private static final String JSON = "application/json";
    /** The most of a refused, oversized body read (and dropped) so that its client can read the refusal. */
    private static final long DRAINED_BYTES = 4L * HostMessage.MAX_BYTES;

    @Override
    public void doFilter(ServletRequest servletRequest, ServletResponse servletResponse, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) servletRequest;
        HttpServletResponse response = (HttpServletResponse) servletResponse;
        HttpServletRequest handedOn = request;
        HostMessage.Accepted message = null;
        if (HttpGatewayListener.ENDPOINT.equals(request.getRequestURI())) {
            Checked checked = check(request);
            if (checked.refused() != null) {
                CleanErrorResponse.send(response, checked.status(), checked.refused().error());
                return;
            }
            message = checked.message();
            if (message != null) {
                request.setAttribute(METHOD_ATTRIBUTE, message.method());
                request.setAttribute(ID_ATTRIBUTE, message.id());
                request.setAttribute(PARAMS_ATTRIBUTE, message.params());
                handedOn = new ReplayedBody(request, checked.body());
            }
        }
        CleanErrorResponse clean = new CleanErrorResponse(request, response, message);
        try {
            chain.doFilter(handedOn, clean);
        } catch (IOException | ServletException | RuntimeException e) {
            LOG.log(Level.WARNING, "the gateway failed to handle a host's " + request.getMethod() + ": "
                    + e.getMessage(), e);
            clean.sendError(HttpServletResponse.SC_INTERNAL_SERVER_ERROR);
        }
        clean.finish();
    }

    /** The request's check: refused with a status, or passed (with its message and body for a POST). */
    private record Checked(int status, HostMessage.Refused refused, HostMessage.Accepted message, byte[] body) {
        static final Checked PASSED = new Checked(0, null, null, null);

        static Checked refused(int status, int code, String message) {
            return new Checked(status, new HostMessage.Refused(null, code, message), null, null);
        }
    }

    private static Checked check(HttpServletRequest request) throws IOException {
        String accept = request.getHeader("Accept") == null ? "" : request.getHeader("Accept");
        return switch (request.getMethod()) {
            case "POST" -> checkPost(request, accept);
            case "GET" -> !accept.contains(EVENT_STREAM)
                    ? Checked.refused(HttpServletResponse.SC_NOT_ACCEPTABLE, McpSchema.ErrorCodes.INVALID_REQUEST,
                    "Not acceptable: a GET opens an event stream, so its Accept header must list " + EVENT_STREAM)
                    : needsSession(request, "a GET opens the event stream of a session");
            case "DELETE" -> needsSession(request, "a DELETE ends a session");
            default -> Checked.PASSED;
        };
    }

    private static Checked checkPost(HttpServletRequest request, String accept) throws IOException {
        if (!accept.contains(JSON) || !accept.contains(EVENT_STREAM)) {
            return Checked.refused(HttpServletResponse.SC_NOT_ACCEPTABLE, McpSchema.ErrorCodes.INVALID_REQUEST,
                    "Not acceptable: a POST's Accept header must list both " + JSON + " and " + EVENT_STREAM);
        }
        String type = request.getContentType();
        if (type == null || !type.split(";")[0].strip().toLowerCase(Locale.ROOT).equals(JSON)) {
            return Checked.refused(HttpServletResponse.SC_UNSUPPORTED_MEDIA_TYPE,
                    McpSchema.ErrorCodes.INVALID_REQUEST, "Unsupported media type: a POST carries one JSON-RPC"
                            + " message as " + JSON + ", not " + (type == null ? "no Content-Type" : type));
        }
        byte[] body = request.getContentLengthLong() > HostMessage.MAX_BYTES ? null
                : readAtMost(request.getInputStream(), HostMessage.MAX_BYTES);
        if (body == null) {
            // A client that writes its body before it reads would otherwise meet a closed connection, not the answer.
            discardAtMost(request.getInputStream(), DRAINED_BYTES);
            return Checked.refused(HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE,
                    McpSchema.ErrorCodes.INVALID_REQUEST, "Payload too large: a message may have at most "
                            + HostMessage.MAX_BYTES + " bytes");
        }
        HostMessage read = HostMessage.read(new String(body, StandardCharsets.UTF_8));
        if (read instanceof HostMessage.Refused refused) {
            return new Checked(HttpServletResponse.SC_BAD_REQUEST, refused, null, null);
        }
        HostMessage.Accepted message = (HostMessage.Accepted) read;
        if (!McpSchema.METHOD_INITIALIZE.equals(message.method())) {
            Checked session = needsSession(request, "only initialize comes without one");
            if (session.refused() != null) {
                return new Checked(session.status(), new HostMessage.Refused(message.id(), session.refused().code(),
                        session.refused().message()), null, null);
            }
        }
        return new Checked(0, null, message, body);
    }

    private static Checked needsSession(HttpServletRequest request, String why) {
        String session = request.getHeader(HttpGatewayListener.SESSION_HEADER);
        return session != null && !session.isBlank() ? Checked.PASSED
                : Checked.refused(HttpServletResponse.SC_BAD_REQUEST, McpSchema.ErrorCodes.INVALID_REQUEST,
                "Bad request: no " + HttpGatewayListener.SESSION_HEADER + " header (" + why + "); send initialize"
                        + " first and name the session it answers with in every later request");
    }

    /** The whole body, or null when it is longer than {@code limit}. */
    /** Reads and drops what the client still sends, up to {@code limit} bytes: nothing of it is kept. */
    private static void discardAtMost(InputStream in, long limit) throws IOException {
        byte[] buffer = new byte[8192];
        long dropped = 0;
        for (int read = in.read(buffer); read >= 0 && dropped < limit; read = in.read(buffer)) {
            dropped += read;
        }
    }

    private static byte[] readAtMost(InputStream in, int limit) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
            body.write(buffer, 0, read);
            if (body.size() > limit) {
                return null;
            }
        }
        return body.toByteArray();
    }
}
