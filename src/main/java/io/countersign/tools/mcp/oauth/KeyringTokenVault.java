package io.countersign.tools.mcp.oauth;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.javakeyring.Keyring;
import com.github.javakeyring.PasswordAccessException;
import java.util.Optional;

/**
 * The grants in the operating system's credential store through java-keyring: the Keychain on macOS, the
 * Credential Manager on Windows (on Linux, {@link SecretServiceTokenVault}). One entry per server, under the service
 * name {@value #SERVICE}.
 */
final class KeyringTokenVault implements TokenVault {
    static final String SERVICE = "countersign-mcp-oauth";
    private final ObjectMapper json = new ObjectMapper();
    private final Keyring keyring;

    KeyringTokenVault(Keyring keyring) {
        this.keyring = keyring;
    }

    @Override
    public synchronized Optional<StoredGrant> load(String server) {
        String stored;
        try {
            stored = keyring.getPassword(SERVICE, server);
        } catch (PasswordAccessException e) {
            return Optional.empty(); // no entry for this server yet
        }
        if (stored == null || stored.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(json.readValue(stored, StoredGrant.class));
        } catch (JsonProcessingException e) {
            throw new OAuthException("the " + description() + " entry " + SERVICE + "/" + server + " is not a grant"
                    + " Countersign wrote; remove it to sign in again");
        }
    }

    @Override
    public synchronized void save(String server, StoredGrant grant) {
        try {
            keyring.setPassword(SERVICE, server, json.writeValueAsString(grant));
        } catch (PasswordAccessException | JsonProcessingException e) {
            throw new OAuthException("the grant of server \"" + server + "\" could not be saved in "
                    + description() + ": " + e.getClass().getSimpleName());
        }
    }

    @Override
    public synchronized void remove(String server) {
        try {
            keyring.deletePassword(SERVICE, server);
        } catch (PasswordAccessException e) {
            // nothing was stored
        }
    }

    @Override
    public String description() {
        return switch (keyring.getKeyringStorageType()) {
            case OSX_KEYCHAIN, LEGACY_OSX_KEYCHAIN -> "the macOS Keychain";
            case WINDOWS_CREDENTIAL_STORE -> "the Windows Credential Manager";
            case KWALLET -> "KWallet (D-Bus)";
            default -> "the Secret Service (D-Bus)";
        };
    }
}
