package io.countersign.tools.mcp.oauth;

import java.net.URI;
import java.util.List;

/** Changes to a user's grants from outside a connection. */
public final class OAuthGrants {
    private OAuthGrants() {
    }

    /**
     * Records a client id registered beforehand with the server's authorization server, replacing any grant the
     * user had for that server: the next sign-in authorizes as that client instead of registering one.
     */
    public static void preRegister(TokenVault vault, String server, URI url, String clientId) {
        if (clientId == null || clientId.isBlank() || clientId.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException("the OAuth client id of server \"" + server + "\" must be a non-empty"
                    + " line of text");
        }
        vault.save(server, new StoredGrant(url.toString(), null, null, null, clientId, null, "none", null, null, null,
                List.of()));
    }
}
