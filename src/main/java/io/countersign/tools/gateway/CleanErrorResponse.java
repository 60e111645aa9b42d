package io.countersign.tools.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Json;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * A response whose error bodies are the gateway's own: whatever the SDK or the servlet container would write with
 * an error status (the SDK writes a serialized Java exception, the container an HTML page naming its servlet) is
 * dropped, and a JSON-RPC error object naming the cause in one sentence takes its place. Successful responses,
 * streams included, pass through untouched.
 */
final class CleanErrorResponse extends HttpServletResponseWrapper {
    private final HttpServletRequest request;
    private final HostMessage.Accepted message;
    private int errorStatus;
    private boolean answered;

    /** @param message the message a POST carries, null for another request */
    CleanErrorResponse(HttpServletRequest request, HttpServletResponse response, HostMessage.Accepted message) {
        super(response);
        this.request = request;
        this.message = message;
    }

    @Override
    public void sendError(int status, String message) throws IOException {
        sendError(status);
    }

    @Override
    public void sendError(int status) throws IOException {
        setStatus(status);
        answer();
    }

    @Override
    public void setStatus(int status) {
        super.setStatus(status);
        errorStatus = status >= 400 ? status : 0;
    }

    @Override
    public PrintWriter getWriter() throws IOException {
        return errorStatus == 0 ? super.getWriter() : new PrintWriter(OutputStream.nullOutputStream());
    }

    @Override
    public ServletOutputStream getOutputStream() throws IOException {
        return errorStatus == 0 ? super.getOutputStream() : new Discarded();
    }

    /** Writes the clean body of an error status set but not yet answered; after the SDK is done with the request. */
    void finish() throws IOException {
        if (errorStatus != 0 && !answered && !isCommitted()) {
            answer();
        }
    }

    private void answer() throws IOException {
        answered = true;
        if (errorStatus == HttpServletResponse.SC_INTERNAL_SERVER_ERROR && message != null
                && message.method() == null) {
            // the SDK fails on a response whose id it is not waiting for
            send((HttpServletResponse) getResponse(), HttpServletResponse.SC_BAD_REQUEST, JsonRpcErrors.error(
                    message.id(), McpSchema.ErrorCodes.INVALID_REQUEST, "Invalid request: the response's id "
                            + message.id() + " answers no request the gateway is waiting on"));
            return;
        }
        send((HttpServletResponse) getResponse(), errorStatus, refusal(errorStatus));
    }

    /**
     * Answers with the status and the error object as the whole body; a response already under way (a stream the
     * SDK had begun) keeps its status only.
     */
    static void send(HttpServletResponse response, int status, ObjectNode error) throws IOException {
        if (response.isCommitted()) {
            return;
        }
        response.resetBuffer();
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        String body = Json.mapper().writeValueAsString(error);
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        // a refused body may be left unread, so the connection ends after the answer, whose length the host knows
        response.setHeader("Connection", "close");
        response.setContentLength(bytes.length);
        try {
            response.getOutputStream().write(bytes);
        } catch (IllegalStateException writerTaken) {
            response.getWriter().write(body);
        }
        response.flushBuffer();
    }

    /** The error for a status, in the words of what the gateway knows about the request. */
    private ObjectNode refusal(int status) {
        JsonNode id = message == null ? null : message.id();
        String session = request.getHeader(HttpGatewayListener.SESSION_HEADER);
        return switch (status) {
            case 403 -> JsonRpcErrors.error(id, McpSchema.ErrorCodes.INVALID_REQUEST, "Forbidden: the request's"
                    + " Origin is not this gateway's own; a web page may not call it");
            case 404 -> session != null && request.getRequestURI().equals(HttpGatewayListener.ENDPOINT)
                    ? JsonRpcErrors.error(id, JsonRpcErrors.SESSION_NOT_FOUND, "Session not found: " + session
                    + " is not open here (it ended, or never existed); send initialize without it for a new one")
                    : JsonRpcErrors.error(id, McpSchema.ErrorCodes.INVALID_REQUEST, "Not found: nothing is served at "
                    + request.getRequestURI() + "; the MCP endpoint is " + HttpGatewayListener.ENDPOINT);
            case 405 -> JsonRpcErrors.error(id, McpSchema.ErrorCodes.INVALID_REQUEST, "Method not allowed: the MCP"
                    + " endpoint takes POST, GET and DELETE, not " + request.getMethod());
            case 413 -> JsonRpcErrors.error(id, McpSchema.ErrorCodes.INVALID_REQUEST, "Payload too large: a message"
                    + " may have at most " + HostMessage.MAX_BYTES + " bytes");
            case 421 -> JsonRpcErrors.error(id, McpSchema.ErrorCodes.INVALID_REQUEST, "Misdirected request: the"
                    + " Host header does not name this gateway's loopback address");
            case 503 -> JsonRpcErrors.error(id, McpSchema.ErrorCodes.INTERNAL_ERROR, "Service unavailable: the"
                    + " gateway is shutting down");
            // the SDK's one other refusal: params it could not read as the method's
            case 400 -> message != null && message.method() != null
                    ? JsonRpcErrors.error(id, McpSchema.ErrorCodes.INVALID_PARAMS, "Invalid params: the params of "
                    + message.method() + " are not of the shape MCP gives them")
                    : JsonRpcErrors.error(id, McpSchema.ErrorCodes.INVALID_REQUEST, "Invalid request: the message is"
                    + " not one MCP knows");
            default -> status < 500
                    ? JsonRpcErrors.error(id, McpSchema.ErrorCodes.INVALID_REQUEST, "Invalid request: the gateway"
                    + " refused it with HTTP status " + status)
                    : JsonRpcErrors.error(id, McpSchema.ErrorCodes.INTERNAL_ERROR, null);
        };
    }

    /** Where a body the gateway replaces goes. */
    private static final class Discarded extends ServletOutputStream {
        @Override
        public boolean isReady() {
            return true;
        }

        @Override
        public void setWriteListener(WriteListener listener) {
            try {
                listener.onWritePossible();
            } catch (IOException e) {
                listener.onError(e);
            }
        }

        @Override
        public void write(int b) {
            // dropped: the gateway answers with its own body
        }
    }
}
