package io.countersign.tools.mcp.oauth;

import java.util.Objects;

/**
 * How a process signs in to the servers that want OAuth: as whom, where the grants are kept, and how a person sees
 * the sign-in page.
 */
public record OAuthSetup(OAuthClientSettings client, TokenVault vault, SignInBrowser browser) {
    public OAuthSetup {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(vault, "vault");
        Objects.requireNonNull(browser, "browser");
    }

    /**
     * A public client that registers itself, the user's credential store, the desktop's browser with the address
     * also printed on standard error (where a command's messages go).
     */
    public static OAuthSetup forThisUser() {
        return new OAuthSetup(OAuthClientSettings.defaults(), TokenVaults.forThisUser(), SignInBrowser.system(System.err));
    }
}
