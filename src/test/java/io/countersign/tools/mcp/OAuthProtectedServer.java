package io.countersign.tools.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;

/**
 * A MockWebServer that is an MCP server wanting OAuth (just the handshake and an empty tool list, for a token it
 * issued) and its authorization server, which registers any client and signs in without a person.
 */
public final class OAuthProtectedServer implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final MockWebServer web = new MockWebServer();
    private final Set<String> tokens = ConcurrentHashMap.newKeySet();
    private final AtomicInteger authorizations = new AtomicInteger();

    /** Starts the server on a free loopback port. */
    public static OAuthProtectedServer start() throws IOException {
        OAuthProtectedServer server = new OAuthProtectedServer();
        server.web.setDispatcher(new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
                return server.answer(request);
            }
        });
        server.web.start();
        return server;
    }

    /** How many times the authorization endpoint was asked to sign someone in. */
    public AtomicInteger authorizations() {
        return authorizations;
    }

    @Override
    public void close() {
        web.close();
    }

    /** The server's address without a trailing slash; the MCP endpoint is {@code base() + "/mcp"}. */
    public String base() {
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
}
