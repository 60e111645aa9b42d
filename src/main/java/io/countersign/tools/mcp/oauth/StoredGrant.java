package io.countersign.tools.mcp.oauth;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the user's credential store keeps for one server: the client the authorization server knows us as and the
 * tokens it issued. Never in the Countersign store, never in a log or an event.
 *
 * @param server       the MCP server's URL the grant is for; a grant for another URL is not used
 * @param issuer       the authorization server that issued it
 * @param tokenEndpoint where its tokens are refreshed
 * @param resource     the resource identifier the tokens were asked for (RFC 8707)
 * @param clientId     the client identifier (registered dynamically, a metadata document URL, or pre-registered)
 * @param clientSecret the client secret, or null for a public client
 * @param authMethod   how the client authenticates at the token endpoint: none, client_secret_basic, client_secret_post
 * @param accessToken  the access token, or null before the first sign-in
 * @param refreshToken the refresh token, or null when none was issued
 * @param expiresAt    when the access token expires (seconds since the epoch), or null when the server did not say
 * @param scopes       the scopes that were asked for
 */
public record StoredGrant(String server, String issuer, String tokenEndpoint, String resource, String clientId, String clientSecret, String authMethod,
                          String accessToken, String refreshToken, Long expiresAt, List<String> scopes) {
    public StoredGrant {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(clientId, "clientId");
        scopes = scopes == null ? List.of() : List.copyOf(scopes);
    }

    StoredGrant withTokens(String access, String refresh, Long expires, List<String> asked) {
        return new StoredGrant(server, issuer, tokenEndpoint, resource, clientId, clientSecret, authMethod, access, refresh, expires, asked);
    }

    /** The access token while it has more than {@code margin} seconds left (or no known end). */
    Optional<String> usableToken(Instant now, long margin) {
        if (accessToken == null || expiresAt != null && now.getEpochSecond() + margin >= expiresAt) {
            return Optional.empty();
        }
        return Optional.of(accessToken);
    }
}
