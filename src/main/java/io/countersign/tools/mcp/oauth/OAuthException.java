package io.countersign.tools.mcp.oauth;

/** The authorization with a server's authorization server could not be completed; the message says why. */
public final class OAuthException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public OAuthException(String message) {
        super(message, null, false, false);
    }
}
