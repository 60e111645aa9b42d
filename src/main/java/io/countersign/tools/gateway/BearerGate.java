package io.countersign.tools.gateway;

import io.modelcontextprotocol.spec.McpSchema;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Serves only requests that carry the gateway's token as {@code Authorization: Bearer TOKEN}; any other is refused
 * with 401 and {@code WWW-Authenticate: Bearer} before anything else reads it.
 */
record BearerGate(GatewayToken token) implements Filter {
    private static final String SCHEME = "Bearer ";

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String authorization = ((HttpServletRequest) request).getHeader("Authorization");
        if (authorization != null && authorization.regionMatches(true, 0, SCHEME, 0, SCHEME.length())
                && token.matches(authorization.substring(SCHEME.length()).strip())) {
            chain.doFilter(request, response);
            return;
        }
        HttpServletResponse refused = (HttpServletResponse) response;
        refused.setHeader("WWW-Authenticate", "Bearer realm=\"countersign-gateway\"");
        CleanErrorResponse.send(refused, HttpServletResponse.SC_UNAUTHORIZED, JsonRpcErrors.error(null,
                McpSchema.ErrorCodes.INVALID_REQUEST, authorization == null
                        ? "Unauthorized: send the gateway's token as the header \"Authorization: Bearer TOKEN\";"
                        + " `countersign gateway token` prints it"
                        : "Unauthorized: the Authorization header does not carry this gateway's bearer token;"
                        + " `countersign gateway token` prints it"));
    }
}
