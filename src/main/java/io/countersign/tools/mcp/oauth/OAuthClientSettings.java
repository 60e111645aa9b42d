package io.countersign.tools.mcp.oauth;

import java.net.URI;
import java.security.PrivateKey;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Who Countersign is to an authorization server.
 *
 * @param clientName             the name shown on the consent page and sent with a dynamic registration
 * @param clientId               a client id registered beforehand; without it the client registers itself
 *                               (RFC 7591) or, where the server supports it, uses {@code clientMetadataDocument}
 * @param clientSecret           the secret of that pre-registered client, when it is a confidential one
 * @param clientMetadataDocument the URL of a client ID metadata document describing this client, used as its client
 *                               id where the authorization server says {@code client_id_metadata_document_supported}
 * @param signingKey             the pre-registered client's key for {@code private_key_jwt} authentication
 *                               (RFC 7523) at the token endpoint of a server that offers the client credentials grant
 * @param signInTimeout          how long a sign-in in the browser may take
 */
public record OAuthClientSettings(String clientName, Optional<String> clientId, Optional<String> clientSecret,
                                  Optional<URI> clientMetadataDocument, Optional<SigningKey> signingKey,
                                  Duration signInTimeout) {
    /** A private key and the JWS algorithm it signs with, such as {@code ES256}. */
    public record SigningKey(PrivateKey key, String algorithm) {
        public SigningKey {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(algorithm, "algorithm");
        }
    }

    public static final Duration DEFAULT_SIGN_IN_TIMEOUT = Duration.ofMinutes(5);

    public OAuthClientSettings {
        Objects.requireNonNull(clientName, "clientName");
        Objects.requireNonNull(clientId, "clientId");
        Objects.requireNonNull(clientSecret, "clientSecret");
        Objects.requireNonNull(clientMetadataDocument, "clientMetadataDocument");
        Objects.requireNonNull(signingKey, "signingKey");
        Objects.requireNonNull(signInTimeout, "signInTimeout");
    }

    /** Countersign as a public native client that registers itself. */
    public static OAuthClientSettings defaults() {
        return new OAuthClientSettings("Countersign", Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), DEFAULT_SIGN_IN_TIMEOUT);
    }

    public OAuthClientSettings withClient(String id, Optional<String> secret) {
        return new OAuthClientSettings(clientName, Optional.of(id), secret, clientMetadataDocument, signingKey,
                signInTimeout);
    }

    public OAuthClientSettings withClientMetadataDocument(URI document) {
        return new OAuthClientSettings(clientName, clientId, clientSecret, Optional.of(document), signingKey,
                signInTimeout);
    }

    public OAuthClientSettings withSigningKey(SigningKey key) {
        return new OAuthClientSettings(clientName, clientId, clientSecret, clientMetadataDocument, Optional.of(key),
                signInTimeout);
    }
}
