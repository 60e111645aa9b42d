package io.countersign.tools.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.countersign.engine.tool.ImportReport;
import io.countersign.engine.tool.McpServerRecord;
import io.countersign.engine.tool.ToolRegistry;
import io.countersign.tools.mcp.oauth.FileTokenVault;
import io.countersign.tools.mcp.oauth.OAuthClientSettings;
import io.countersign.tools.mcp.oauth.OAuthSetup;
import io.countersign.tools.mcp.oauth.SignInBrowser;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sign-in takes as long as the person takes: the handshake's deadline stops meanwhile. Against a MockWebServer
 * that is an MCP server wanting OAuth and its authorization server.
 */
class OAuthSignInDeadlineTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    @TempDir
    Path folder;
    private final MockWebServer web = new MockWebServer();
    private final Set<String> tokens = ConcurrentHashMap.newKeySet();
    private final AtomicInteger authorizations = new AtomicInteger();

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

    private MockResponse answer(RecordedRequest request) {
        String path = request.getUrl().encodedPath();
        String body = request.getBody() == null ? "" : request.getBody().string(StandardCharsets.UTF_8);
        switch (path) {
            case "/.well-known/oauth-protected-resource/mcp":
                return json(200, "{\"resource\":\"" + base() + "/mcp\",\"authorization_servers\":[\"" + base()
                        + "\"]}");
            case "/.well-known/oauth-authorization-server":
                return json(200, "{\"issuer\":\"" + base() + "\",\"authorization_endpoint\":\"" + base()
                        + "/authorize\",\"token_endpoint\":\"" + base() + "/token\",\"registration_endpoint\":\""
                        + base() + "/register\",\"response_types_supported\":[\"code\"]}");
            case "/register":
                return json(201, "{\"client_id\":\"cli-client\",\"token_endpoint_auth_method\":\"none\"}");
            case "/authorize": {
                authorizations.incrementAndGet();
                String redirect = request.getUrl().queryParameter("redirect_uri");
                String state = request.getUrl().queryParameter("state");
                return new MockResponse.Builder().code(302).addHeader("Location", redirect + "?code=c1&state="
                        + state).build();
            }
            case "/token": {
                String token = "token-" + tokens.size();
                tokens.add(token);
                return json(200, "{\"access_token\":\"" + token + "\",\"token_type\":\"Bearer\",\"expires_in\":3600}");
            }
            case "/mcp":
                return mcp(request, body);
            default:
                return new MockResponse.Builder().code(404).build();
        }
    }

    /** Just enough MCP over Streamable HTTP: the handshake and an empty tool list, for a valid token only. */
    private MockResponse mcp(RecordedRequest request, String body) {
        String authorization = request.getHeaders().get("Authorization");
        if (authorization == null || !tokens.contains(authorization.substring("Bearer ".length()))) {
            return new MockResponse.Builder().code(401).addHeader("WWW-Authenticate", "Bearer resource_metadata=\""
                    + base() + "/.well-known/oauth-protected-resource/mcp\"").build();
        }
        if (!"POST".equals(request.getMethod())) {
            return new MockResponse.Builder().code(405).build();
        }
        try {
            JsonNode message = JSON.readTree(body);
            if (!message.has("id")) {
                return new MockResponse.Builder().code(202).build();
            }
            String result = message.path("method").asText().equals("initialize")
                    ? "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"tools\":{}},\"serverInfo\":"
                    + "{\"name\":\"docs\",\"version\":\"1.0.0\"}}"
                    : "{\"tools\":[]}";
            return json(200, "{\"jsonrpc\":\"2.0\",\"id\":" + message.get("id") + ",\"result\":" + result + "}");
        } catch (Exception e) {
            return new MockResponse.Builder().code(400).build();
        }
    }

    private static MockResponse json(int code, String body) {
        return new MockResponse.Builder().code(code).addHeader("Content-Type", "application/json").body(body).build();
    }

    @Test
    void aSignInLongerThanTheConnectTimeoutDoesNotFailTheHandshake() {
        SignInBrowser slowPerson = url -> {
            try {
                Thread.sleep(2_500); // reading the consent page
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ConformanceSignIn.following().open(url);
        };
        OAuthSetup oauth = new OAuthSetup(OAuthClientSettings.defaults(),
                new FileTokenVault(folder.resolve("oauth-tokens.json")), slowPerson);
        McpServerRecord record = McpServerRecord.streamableHttp("docs", URI.create(base() + "/mcp"))
                .withConnectTimeout(Duration.ofSeconds(1));

        try (McpToolSource source = McpToolSource.builder(record, new ToolRegistry()).oauth(oauth).build()) {
            ImportReport report = source.open();

            assertThat(report.registered()).isEmpty();
            assertThat(authorizations).hasValue(1);
            assertThat(source.credentialStore()).hasValueSatisfying(store -> assertThat(store)
                    .contains(folder.resolve("oauth-tokens.json").toString()));
        }
    }
}
