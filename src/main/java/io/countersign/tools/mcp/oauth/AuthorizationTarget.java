package io.countersign.tools.mcp.oauth;

import com.nimbusds.oauth2.sdk.as.AuthorizationServerMetadata;
import java.net.URI;
import java.util.List;

/**
 * Where to authorize for one MCP server, as discovery found it.
 *
 * @param resource        the protected resource's identifier, sent as the {@code resource} parameter (RFC 8707)
 * @param metadata        the authorization server's metadata (RFC 8414 or OpenID discovery), or endpoints at the
 *                        server's root when it published none (the 2025-03-26 fallback)
 * @param scopesSupported the scopes the protected-resource metadata lists; empty when it lists none or there is none
 * @param how             how the metadata was found, in words for a person
 */
public record AuthorizationTarget(URI resource, AuthorizationServerMetadata metadata, List<String> scopesSupported,
                                  String how) {
    public AuthorizationTarget {
        scopesSupported = List.copyOf(scopesSupported);
    }
}
