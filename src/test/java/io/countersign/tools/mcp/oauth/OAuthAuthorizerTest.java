package io.countersign.tools.mcp.oauth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import com.nimbusds.oauth2.sdk.util.URLUtils;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The authorizer against a MockWebServer that is both the MCP server (Bearer tokens, 401 and 403 challenges) and its
 * authorization server (metadata, registration, an authorization endpoint that redirects at once, a token endpoint).
 */
class OAuthAuthorizerTest {
    private final MockWebServer web = new MockWebServer();
    private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.ALWAYS).build();
    private final MemoryVault vault = new MemoryVault();
    private final List<Map<String, List<String>>> authorizations = new ArrayList<>();
    private final List<Map<String, List<String>>> tokenRequests = new ArrayList<>();
    private final AtomicInteger registrations = new AtomicInteger();
    private final Map<String, List<String>> tokenScopes = new HashMap<>();
    /** The scopes each MCP request needs; a token without them gets 403 insufficient_scope. */
    private volatile List<String> needed = List.of("mcp:basic");
    private volatile boolean refreshRefused;

    static final class MemoryVault implements TokenVault {
        final Map<String, StoredGrant> grants = new HashMap<>();

        @Override
        public synchronized Optional<StoredGrant> load(String server) {
            return Optional.ofNullable(grants.get(server));
        }

        @Override
        public synchronized void save(String server, StoredGrant grant) {
            grants.put(server, grant);
        }

        @Override
        public synchronized void remove(String server) {
            grants.remove(server);
        }

        @Override
        public String description() {
            return "memory";
        }
    }

    @BeforeEach
    void start() throws Exception {
        web.setDispatcher(new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
                return answer(request);
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

    private URI mcp() {
        return URI.create(base() + "/mcp");
    }

    private synchronized MockResponse answer(RecordedRequest request) {
        String path = request.getUrl().encodedPath();
        String form = request.getBody() == null ? "" : request.getBody().string(StandardCharsets.UTF_8);
        switch (path) {
            case "/.well-known/oauth-protected-resource/mcp":
                return json(200, "{\"resource\":\"" + mcp() + "\",\"authorization_servers\":[\"" + base() + "\"]}");
            case "/.well-known/oauth-authorization-server":
                return json(200, "{\"issuer\":\"" + base() + "\",\"authorization_endpoint\":\"" + base()
                        + "/authorize\",\"token_endpoint\":\"" + base() + "/token\",\"registration_endpoint\":\""
                        + base() + "/register\",\"response_types_supported\":[\"code\"],"
                        + "\"code_challenge_methods_supported\":[\"S256\"],\"token_endpoint_auth_methods_supported\":"
                        + "[\"none\"]}");
            case "/register":
                registrations.incrementAndGet();
                return json(201, "{\"client_id\":\"registered-1\",\"token_endpoint_auth_method\":\"none\"}");
            case "/authorize": {
                Map<String, List<String>> query = URLUtils.parseParameters(request.getUrl().encodedQuery());
                authorizations.add(query);
                String back = query.get("redirect_uri").get(0) + "?code=code-" + authorizations.size() + "&state="
                        + query.get("state").get(0);
                return new MockResponse.Builder().code(302).addHeader("Location", back).build();
            }
            case "/token": {
                Map<String, List<String>> body = URLUtils.parseParameters(form);
                tokenRequests.add(body);
                if (body.get("grant_type").get(0).equals("refresh_token") && refreshRefused) {
                    return json(400, "{\"error\":\"invalid_grant\",\"error_description\":\"revoked\"}");
                }
                String token = "access-" + tokenRequests.size();
                List<String> scopes = body.get("grant_type").get(0).equals("authorization_code")
                        ? List.of(authorizations.get(authorizations.size() - 1).getOrDefault("scope", List.of(""))
                        .get(0).split(" ")) : List.of("mcp:basic");
                tokenScopes.put(token, scopes);
                return json(200, "{\"access_token\":\"" + token + "\",\"token_type\":\"Bearer\",\"expires_in\":3600,"
                        + "\"refresh_token\":\"refresh-" + tokenRequests.size() + "\"}");
            }
            case "/mcp": {
                String authorization = request.getHeaders().get("Authorization");
                String metadata = "resource_metadata=\"" + base() + "/.well-known/oauth-protected-resource/mcp\"";
                if (authorization == null || !tokenScopes.containsKey(authorization.substring(7))) {
                    return new MockResponse.Builder().code(401).addHeader("WWW-Authenticate", "Bearer scope=\""
                            + String.join(" ", needed) + "\", " + metadata).build();
                }
                if (!tokenScopes.get(authorization.substring(7)).containsAll(needed)) {
                    return new MockResponse.Builder().code(403).addHeader("WWW-Authenticate", "Bearer error="
                            + "\"insufficient_scope\", scope=\"" + String.join(" ", needed) + "\", " + metadata).build();
                }
                return json(200, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}");
            }
            default:
                return new MockResponse.Builder().code(404).build();
        }
    }

    private static MockResponse json(int code, String body) {
        return new MockResponse.Builder().code(code).addHeader("Content-Type", "application/json").body(body).build();
    }

    private OAuthAuthorizer authorizer() {
        SignInBrowser following = url -> {
            try {
                http.send(HttpRequest.newBuilder(url).GET().build(), HttpResponse.BodyHandlers.discarding());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        return new OAuthAuthorizer("docs", mcp(), OAuthClientSettings.defaults(), vault, following,
                Duration.ofSeconds(5));
    }

    private HttpResponse<String> call(OAuthAuthorizer authorizer) throws Exception {
        return authorizer.exchange(token -> {
            HttpRequest.Builder post = HttpRequest.newBuilder(mcp()).POST(HttpRequest.BodyPublishers.ofString("{}"));
            token.ifPresent(value -> post.header("Authorization", "Bearer " + value));
            return http.send(post.build(), HttpResponse.BodyHandlers.ofString());
        }, refused -> {
        });
    }

    private StoredGrant seeded(long expiresAt) {
        return new StoredGrant(mcp().toString(), base(), base() + "/token", mcp().toString(), "registered-1", null,
                "none", "access-0", "refresh-0", expiresAt, List.of("mcp:basic"));
    }

    @Test
    void a401SignsInWithPkceAndTheResourceAndA403ForMoreScopeStepsUpToTheUnion() throws Exception {
        OAuthAuthorizer authorizer = authorizer();

        assertThat(call(authorizer).statusCode()).isEqualTo(200);

        assertThat(registrations).hasValue(1);
        Map<String, List<String>> first = authorizations.get(0);
        assertThat(first.get("scope")).containsExactly("mcp:basic");
        assertThat(first.get("code_challenge_method")).containsExactly("S256");
        assertThat(first.get("code_challenge").get(0)).hasSizeGreaterThanOrEqualTo(43);
        assertThat(first.get("resource")).containsExactly(mcp().toString());
        assertThat(first.get("redirect_uri").get(0)).matches("http://127\\.0\\.0\\.1:\\d+/callback");
        assertThat(tokenRequests.get(0).get("code_verifier")).isNotEmpty();
        assertThat(tokenRequests.get(0).get("resource")).containsExactly(mcp().toString());
        assertThat(vault.grants.get("docs").accessToken()).isEqualTo("access-1");

        needed = List.of("mcp:basic", "mcp:write");
        assertThat(call(authorizer).statusCode()).isEqualTo(200);

        assertThat(authorizations).hasSize(2);
        assertThat(authorizations.get(1).get("scope").get(0).split(" ")).containsExactly("mcp:basic", "mcp:write");
        assertThat(registrations).as("the registered client is reused").hasValue(1);
        assertThat(vault.grants.get("docs").scopes()).containsExactly("mcp:basic", "mcp:write");
    }

    @Test
    void aServerThatKeepsRefusingTheScopeAlreadyAskedForIsGivenUpOnAfterOneSignIn() throws Exception {
        OAuthAuthorizer authorizer = authorizer();
        call(authorizer);
        tokenScopes.replaceAll((token, scopes) -> List.of()); // the server now ignores what it granted

        assertThatThrownBy(() -> call(authorizer)).isInstanceOf(OAuthException.class)
                .hasMessage("server \"docs\" refused the token for want of scope (mcp:basic), which the sign-in"
                        + " already asked for");
        assertThat(authorizations).hasSize(1);
    }

    @Test
    void anExpiredTokenIsRefreshedForTheSameResourceBeforeItIsSent() {
        vault.save("docs", seeded(Instant.now().minusSeconds(10).getEpochSecond()));

        assertThat(authorizer().bearer()).contains("access-1");

        assertThat(tokenRequests).singleElement().satisfies(request -> {
            assertThat(request.get("grant_type")).containsExactly("refresh_token");
            assertThat(request.get("refresh_token")).containsExactly("refresh-0");
            assertThat(request.get("resource")).containsExactly(mcp().toString());
            assertThat(request.get("client_id")).containsExactly("registered-1");
        });
        assertThat(vault.grants.get("docs").refreshToken()).isEqualTo("refresh-1");
        assertThat(authorizations).as("no sign-in").isEmpty();
    }

    @Test
    void aRefreshTokenTheServerNoLongerHonoursDropsTheTokensAndTheNext401SignsIn() throws Exception {
        vault.save("docs", seeded(Instant.now().minusSeconds(10).getEpochSecond()));
        refreshRefused = true;
        OAuthAuthorizer authorizer = authorizer();

        assertThat(authorizer.bearer()).isEmpty();
        assertThat(vault.grants.get("docs").accessToken()).isNull();

        assertThat(call(authorizer).statusCode()).isEqualTo(200);
        assertThat(authorizations).hasSize(1);
        assertThat(authorizations.get(0).get("client_id")).containsExactly("registered-1");
    }

    @Test
    void aPreRegisteredClientIdIsSignedInAsWithoutRegistering() throws Exception {
        OAuthGrants.preRegister(vault, "docs", mcp(), "pre-registered-7");

        assertThat(call(authorizer()).statusCode()).isEqualTo(200);

        assertThat(registrations).hasValue(0);
        assertThat(authorizations.get(0).get("client_id")).containsExactly("pre-registered-7");
        assertThat(vault.grants.get("docs").issuer()).isEqualTo(base());
    }
}
