package io.countersign.tools.mcp.oauth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The discovery order of the MCP authorization specification, against a server that answers only some paths. */
class AuthorizationDiscoveryTest {
    private final MockWebServer web = new MockWebServer();
    private final List<String> asked = new ArrayList<>();
    private Map<String, String> documents = Map.of();

    @BeforeEach
    void start() throws Exception {
        web.setDispatcher(new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
                String path = request.getUrl().encodedPath();
                synchronized (asked) {
                    asked.add(path);
                }
                String body = documents.get(path);
                return body == null ? new MockResponse.Builder().code(404).build()
                        : new MockResponse.Builder().code(200).addHeader("Content-Type", "application/json")
                        .body(body.replace("BASE", base())).build();
            }
        });
        web.start();
    }

    @AfterEach
    void stop() {
        web.close();
    }

    private String base() {
        String url = web.url("/").toString();
        return url.substring(0, url.length() - 1);
    }

    private AuthorizationTarget discover(OAuthChallenge challenge) {
        return new AuthorizationDiscovery(HttpClient.newHttpClient(), Duration.ofSeconds(5))
                .discover(URI.create(base() + "/mcp"), challenge);
    }

    private static OAuthChallenge bare() {
        return new OAuthChallenge(401, Optional.empty(), Set.of(), Optional.empty());
    }

    private static String metadata(String issuerPath) {
        return "{\"issuer\":\"BASE" + issuerPath + "\",\"authorization_endpoint\":\"BASE" + issuerPath
                + "/authorize\",\"token_endpoint\":\"BASE" + issuerPath + "/token\",\"response_types_supported\":"
                + "[\"code\"]}";
    }

    @Test
    void withoutAHintThePathBasedResourceMetadataComesFirstThenTheRootThenTheIssuersPathVariantsInOrder() {
        documents = Map.of("/.well-known/oauth-protected-resource", "{\"resource\":\"BASE/mcp\","
                        + "\"authorization_servers\":[\"BASE/tenant1\"],\"scopes_supported\":[\"mcp:read\",\"mcp:write\"]}",
                "/tenant1/.well-known/openid-configuration", metadata("/tenant1"));

        AuthorizationTarget target = discover(bare());

        assertThat(asked).containsExactly("/.well-known/oauth-protected-resource/mcp",
                "/.well-known/oauth-protected-resource", "/.well-known/oauth-authorization-server/tenant1",
                "/.well-known/openid-configuration/tenant1", "/tenant1/.well-known/openid-configuration");
        assertThat(target.resource()).isEqualTo(URI.create(base() + "/mcp"));
        assertThat(target.metadata().getTokenEndpointURI()).isEqualTo(URI.create(base() + "/tenant1/token"));
        assertThat(target.scopesSupported()).containsExactly("mcp:read", "mcp:write");
    }

    @Test
    void theChallengesResourceMetadataIsAskedFirstAndAnIssuerWithoutPathTriesRfc8414ThenOpenId() {
        documents = Map.of("/custom/prm.json", "{\"resource\":\"BASE/mcp\",\"authorization_servers\":[\"BASE\"]}",
                "/.well-known/openid-configuration", metadata(""));
        OAuthChallenge challenge = OAuthChallenge.of(401, Optional.of("Bearer error=\"invalid_token\","
                + " resource_metadata=\"" + base() + "/custom/prm.json\""));

        AuthorizationTarget target = discover(challenge);

        assertThat(asked).containsExactly("/custom/prm.json", "/.well-known/oauth-authorization-server",
                "/.well-known/openid-configuration");
        assertThat(target.scopesSupported()).isEmpty();
    }

    @Test
    void aServerWithoutAnyMetadataIsItsOwnAuthorizationServerAtTheDefaultEndpoints() {
        AuthorizationTarget target = discover(bare());

        assertThat(asked).containsExactly("/.well-known/oauth-protected-resource/mcp",
                "/.well-known/oauth-protected-resource", "/.well-known/oauth-authorization-server",
                "/.well-known/openid-configuration");
        assertThat(target.metadata().getAuthorizationEndpointURI()).isEqualTo(URI.create(base() + "/authorize"));
        assertThat(target.metadata().getTokenEndpointURI()).isEqualTo(URI.create(base() + "/token"));
        assertThat(target.metadata().getRegistrationEndpointURI()).isEqualTo(URI.create(base() + "/register"));
    }

    @Test
    void resourceMetadataThatNamesNoAuthorizationServerIsRefusedNamingWhere() {
        documents = Map.of("/.well-known/oauth-protected-resource/mcp", "{\"resource\":\"BASE/mcp\"}");

        assertThatThrownBy(() -> discover(bare())).isInstanceOf(OAuthException.class)
                .hasMessageContaining("/.well-known/oauth-protected-resource/mcp names no authorization server");
    }

    @Test
    void resourceMetadataForAnotherResourceIsRefusedBeforeAnyTokenIsAskedFor() {
        documents = Map.of("/.well-known/oauth-protected-resource/mcp", "{\"resource\":\"https://elsewhere.example.org"
                + "/mcp\",\"authorization_servers\":[\"BASE\"]}");

        assertThatThrownBy(() -> discover(bare())).isInstanceOf(OAuthException.class)
                .hasMessageContaining("is for https://elsewhere.example.org/mcp, not for " + base() + "/mcp");
        assertThat(AuthorizationDiscovery.covers(URI.create("http://h:1/"), URI.create("http://h:1/mcp"))).isTrue();
        assertThat(AuthorizationDiscovery.covers(URI.create("http://h:1/mc"), URI.create("http://h:1/mcp"))).isFalse();
    }

    @Test
    void aChallengeGivesItsErrorScopesAndMetadataUrl() {
        OAuthChallenge challenge = OAuthChallenge.of(403, Optional.of("Bearer error=\"insufficient_scope\","
                + " scope=\"mcp:basic mcp:write\", resource_metadata=\"https://mcp.example.org/.well-known/x\""));

        assertThat(challenge.insufficientScope()).isTrue();
        assertThat(challenge.scopes()).containsExactlyInAnyOrder("mcp:basic", "mcp:write");
        assertThat(challenge.resourceMetadata()).contains(URI.create("https://mcp.example.org/.well-known/x"));
        assertThat(OAuthChallenge.of(401, Optional.of("Basic realm=\"x\"")).scopes()).isEmpty();
    }
}
