package io.countersign.tools.mcp.oauth;

import com.github.javakeyring.Keyring;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Picks where this user's grants live: the operating system's credential store when there is one. */
public final class TokenVaults {
    private static final Logger LOG = Logger.getLogger(TokenVaults.class.getName());
    /** {@code COUNTERSIGN_OAUTH_STORE=file} keeps the grants in the file even where a credential store exists. */
    public static final String CHOICE = "COUNTERSIGN_OAUTH_STORE";
    private static TokenVault chosen;

    private TokenVaults() {
    }

    /**
     * The credential store of the operating system when one answers: the Secret Service on the session bus (an
     * unlocked default collection) on Linux, the Keychain on macOS, the Credential Manager on Windows;
     * otherwise {@link FileTokenVault#inUserConfig()}, as also when {@value #CHOICE} is {@code file}. Chosen once per
     * process.
     */
    public static synchronized TokenVault forThisUser() {
        if (chosen == null) {
            chosen = systemStore();
        }
        return chosen;
    }

    private static TokenVault systemStore() {
        if ("file".equals(System.getenv(CHOICE))) {
            return FileTokenVault.inUserConfig();
        }
        String os = System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT);
        if (!os.contains("mac") && !os.contains("win")) {
            // Linux and the other freedesktop systems: the Secret Service, spoken to over dbus-java directly
            return SecretServiceTokenVault.available() ? new SecretServiceTokenVault() : FileTokenVault.inUserConfig();
        }
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
