package io.countersign.tools.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.countersign.tools.mcp.oauth.FileTokenVault;
import io.countersign.tools.mcp.oauth.OAuthClientSettings;
import io.countersign.tools.mcp.oauth.OAuthSetup;
import io.countersign.tools.mcp.oauth.SignInBrowser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;

/**
 * How the conformance client signs in: as the product does (discovery, registration, PKCE, the loopback listener, a
 * token file), with a "browser" that is an HTTP client following the authorization server's redirects, since the
 * suite's server signs the user in without a page. A scenario that hands the client pre-registered credentials
 * does so in {@code MCP_CONFORMANCE_CONTEXT} ({@code client_id} with {@code client_secret} or
 * {@code private_key_pem}); the client ID metadata
 * document URL is the one the suite expects.
 */
final class ConformanceSignIn {
    static final URI CLIENT_METADATA_DOCUMENT = URI.create("https://conformance-test.local/client-metadata.json");
    private static final Duration FOLLOW_TIMEOUT = Duration.ofSeconds(10);

    private ConformanceSignIn() {
    }

    static OAuthSetup setup(String context) {
        OAuthClientSettings client = OAuthClientSettings.defaults().withClientMetadataDocument(CLIENT_METADATA_DOCUMENT);
        if (context != null && !context.isBlank()) {
            try {
                JsonNode given = new ObjectMapper().readTree(context);
                if (given.path("client_id").isTextual()) {
                    client = client.withClient(given.get("client_id").asText(), Optional.ofNullable(
                            given.path("client_secret").isTextual() ? given.get("client_secret").asText() : null));
                }
                if (given.path("private_key_pem").isTextual()) {
                    client = client.withSigningKey(new OAuthClientSettings.SigningKey(ecKey(given.get("private_key_pem")
                            .asText()), given.path("signing_algorithm").asText("ES256")));
                }
            } catch (IOException e) {
                throw new IllegalArgumentException("MCP_CONFORMANCE_CONTEXT is not JSON", e);
            }
        }
        try {
            FileTokenVault vault = new FileTokenVault(Files.createTempDirectory("countersign-conformance-oauth-")
                    .resolve("oauth-tokens.json"));
            return new OAuthSetup(client, vault, following());
        } catch (IOException e) {
            throw new UncheckedIOException("no folder for the conformance client's token file", e);
        }
    }

    /** A PKCS #8 PEM elliptic-curve private key, as the suite hands it over. */
    static PrivateKey ecKey(String pem) {
        String base64 = pem.replaceAll("-----(BEGIN|END) PRIVATE KEY-----", "").replaceAll("\\s", "");
        try {
            return KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder()
                    .decode(base64)));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalArgumentException("private_key_pem is not a PKCS #8 EC private key", e);
        }
    }

    /** Opens the sign-in page with an HTTP client that follows every redirect, down to the loopback listener. */
    static SignInBrowser following() {
        HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.ALWAYS)
                .connectTimeout(FOLLOW_TIMEOUT).build();
        return url -> {
            try {
                http.send(HttpRequest.newBuilder(url).timeout(FOLLOW_TIMEOUT).GET().build(),
                        HttpResponse.BodyHandlers.discarding());
            } catch (IOException e) {
                throw new UncheckedIOException("the sign-in page " + url + " could not be followed", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
    }
}
