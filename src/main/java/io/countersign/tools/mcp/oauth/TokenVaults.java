package io.countersign.tools.mcp.oauth;

import com.github.javakeyring.Keyring;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Picks where this user's grants live: the operating system's credential store when there is one. */
public final class TokenVaults {
    private static final Logger LOG = Logger.getLogger(TokenVaults.class.getName());
    private static TokenVault chosen;

    private TokenVaults() {
    }

    /**
     * The credential store of the operating system (Secret Service, Keychain, Credential Manager) when one answers,
     * otherwise {@link FileTokenVault#inUserConfig()}. Chosen once per process.
     */
    public static synchronized TokenVault forThisUser() {
        if (chosen == null) {
            chosen = systemStore();
        }
        return chosen;
    }

    private static TokenVault systemStore() {
        try {
            Keyring keyring = Keyring.create();
            return new KeyringTokenVault(keyring);
        } catch (Exception | LinkageError e) {
            // no Secret Service on the session bus (a headless machine), no Keychain access, ...
            LOG.log(Level.FINE, "no credential store of the operating system ({0}); OAuth tokens go to a file",
                    e.getClass().getName());
            return FileTokenVault.inUserConfig();
        }
    }
}
