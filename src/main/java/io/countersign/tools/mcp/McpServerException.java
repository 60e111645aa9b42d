package io.countersign.tools.mcp;

/**
 * An MCP server could not do what was asked. The message is written here, never copied from a lower-level
 * exception, so it names the server and what happened and carries no secret; it is for the person. Only a
 * refusal quotes the server, bounded and flattened to one line: what the model reads is {@link #forModel()}.
 */
public final class McpServerException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** What went wrong, for callers that react differently (an admin's "test server" button, a retry). */
    public enum Kind {
        /** The record cannot be used as it is, such as a secret reference to a variable that is not set. */
        CONFIGURATION,
        /** The server could not be started or reached, or did not complete the handshake. */
        UNREACHABLE,
        /** The server refused this client's credentials (HTTP 401 or 403). */
        UNAUTHORIZED,
        /** A connection failed a moment ago; the next attempt waits for the backoff to pass. */
        BACKING_OFF,
        /** The server did not answer in time. */
        TIMED_OUT,
        /** The server stopped or the connection broke while a request was open. */
        STOPPED,
        /** The call's caller gave it up while it ran, and its server, asked to stop it, did not answer. */
        WITHDRAWN,
        /** The server answered with something that is not what MCP says it must be. */
        INVALID_ANSWER,
        /** The server answered the request with a JSON-RPC error. */
        REFUSED
    }

    private final Kind kind;
    private final String forModel;
    private final String reason;

    McpServerException(Kind kind, String message) {
        this(kind, message, message, null);
    }

    private McpServerException(Kind kind, String message, String forModel, String reason) {
        super(message);
        this.kind = kind;
        this.forModel = forModel;
        this.reason = reason;
    }

    /** The server went away while a request was open; {@code reason} says how, in a few words of our own. */
    static McpServerException stopped(String message, String reason) {
        return new McpServerException(Kind.STOPPED, message, message, reason);
    }

    /**
     * The server answered a request with a JSON-RPC error. Its words go to the person ({@code message}); the model
     * gets the code alone, since the server's text may be anything, instructions to the model included.
     */
    static McpServerException refused(String server, String message, int code) {
        return new McpServerException(Kind.REFUSED, message, "server \"" + server + "\" failed the call (JSON-RPC error "
                + code + "). Nothing else is known.", null);
    }

    /** How a stopped server went away ("exited with status 1"), or null. */
    public String reason() {
        return reason;
    }

    public Kind kind() {
        return kind;
    }

    /** What the model may read of this failure: the message, save for a refusal, whose server text stays out. */
    public String forModel() {
        return forModel;
    }
}
