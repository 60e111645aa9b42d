package io.countersign.tools.mcp.oauth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.oauth2.sdk.ParseException;
import com.nimbusds.oauth2.sdk.as.AuthorizationServerMetadata;
import com.nimbusds.oauth2.sdk.id.Issuer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Finds where to authorize for an MCP server, in the order the MCP authorization specification (2025-11-25) gives:
 *
 * <ol>
 *   <li>the protected-resource metadata (RFC 9728): the challenge's {@code resource_metadata} URL, else
 *       {@code /.well-known/oauth-protected-resource} with the server URL's path appended, else at the root;</li>
 *   <li>its first authorization server's metadata: for an issuer with a path, RFC 8414's
 *       {@code /.well-known/oauth-authorization-server/PATH}, then OpenID's {@code /.well-known/openid-configuration/PATH}
 *       and {@code PATH/.well-known/openid-configuration}; for one without, the first two at the root;</li>
 *   <li>a server with no protected-resource metadata is taken as its own authorization server (the 2025-03-26
 *       revision): its root metadata, else the endpoints {@code /authorize}, {@code /token}, {@code /register} at
 *       its root.</li>
 * </ol>
 */
final class AuthorizationDiscovery {
    private static final String PRM = "/.well-known/oauth-protected-resource";
    private static final String RFC8414 = "/.well-known/oauth-authorization-server";
    private static final String OIDC = "/.well-known/openid-configuration";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http;
    private final Duration timeout;

    AuthorizationDiscovery(HttpClient http, Duration timeout) {
        this.http = http;
        this.timeout = timeout;
    }

    AuthorizationTarget discover(URI server, OAuthChallenge challenge) {
        List<URI> prmCandidates = new ArrayList<>();
        challenge.resourceMetadata().ifPresent(prmCandidates::add);
        String path = trimmedPath(server);
        if (!path.isEmpty()) {
            prmCandidates.add(origin(server).resolve(PRM + path));
        }
        prmCandidates.add(origin(server).resolve(PRM));
        for (URI candidate : prmCandidates) {
            Optional<JsonNode> prm = fetch(candidate);
            if (prm.isPresent()) {
                return fromResourceMetadata(server, candidate, prm.get());
            }
        }
        // no protected-resource metadata: the 2025-03-26 revision, where the server's origin authorizes
        URI origin = origin(server);
        for (URI candidate : List.of(origin.resolve(RFC8414), origin.resolve(OIDC))) {
            Optional<AuthorizationServerMetadata> metadata = fetch(candidate).map(node -> parse(candidate, node));
            if (metadata.isPresent()) {
                return new AuthorizationTarget(server, metadata.get(), List.of(), "authorization server metadata at "
                        + candidate + " (the server publishes no protected-resource metadata)");
            }
        }
        AuthorizationServerMetadata fallback = new AuthorizationServerMetadata(new Issuer(origin.toString()));
        fallback.setAuthorizationEndpointURI(origin.resolve("/authorize"));
        fallback.setTokenEndpointURI(origin.resolve("/token"));
        fallback.setRegistrationEndpointURI(origin.resolve("/register"));
        return new AuthorizationTarget(server, fallback, List.of(), "the default endpoints at " + origin
                + " (the server publishes no metadata)");
    }

    private AuthorizationTarget fromResourceMetadata(URI server, URI where, JsonNode prm) {
        JsonNode servers = prm.path("authorization_servers");
        if (!servers.isArray() || servers.isEmpty() || !servers.get(0).isTextual()) {
            throw new OAuthException("the protected-resource metadata at " + where + " names no authorization server");
        }
        URI issuer = uri(servers.get(0).asText(), "the authorization server named at " + where);
        URI resource = prm.path("resource").isTextual() ? uri(prm.path("resource").asText(), "the resource at " + where)
                : server;
        if (!covers(resource, server)) {
            throw new OAuthException("the protected-resource metadata at " + where + " is for " + resource + ", not for "
                    + server + "; no token is asked for another resource");
        }
        List<String> scopes = new ArrayList<>();
        prm.path("scopes_supported").forEach(scope -> {
            if (scope.isTextual()) {
                scopes.add(scope.asText());
            }
        });
        for (URI candidate : metadataCandidates(issuer)) {
            Optional<AuthorizationServerMetadata> metadata = fetch(candidate).map(node -> parse(candidate, node));
            if (metadata.isPresent()) {
                return new AuthorizationTarget(resource, metadata.get(), scopes, "protected-resource metadata at "
                        + where + ", authorization server metadata at " + candidate);
            }
        }
        throw new OAuthException("the authorization server " + issuer + " (named at " + where + ") publishes no"
                + " metadata at " + metadataCandidates(issuer));
    }

    /** RFC 8414 section 3.1 and OpenID Connect Discovery 1.0, in the MCP specification's order. */
    static List<URI> metadataCandidates(URI issuer) {
        URI origin = origin(issuer);
        String path = trimmedPath(issuer);
        if (path.isEmpty()) {
            return List.of(origin.resolve(RFC8414), origin.resolve(OIDC));
        }
        return List.of(origin.resolve(RFC8414 + path), origin.resolve(OIDC + path), origin.resolve(path + OIDC));
    }

    private Optional<JsonNode> fetch(URI uri) {
        HttpResponse<String> response;
        try {
            response = http.send(HttpRequest.newBuilder(uri).timeout(timeout).header("Accept", "application/json")
                    .header("MCP-Protocol-Version", "2025-11-25").GET().build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new OAuthException("the metadata at " + uri + " could not be fetched ("
                    + e.getClass().getSimpleName() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OAuthException("interrupted while fetching " + uri);
        }
        if (response.statusCode() / 100 != 2) {
            return Optional.empty(); // 404 and the like: try the next place
        }
        try {
            JsonNode node = JSON.readTree(response.body());
            return node != null && node.isObject() ? Optional.of(node) : Optional.empty();
        } catch (IOException e) {
            throw new OAuthException("the metadata at " + uri + " is not a JSON object");
        }
    }

    private static AuthorizationServerMetadata parse(URI where, JsonNode node) {
        try {
            AuthorizationServerMetadata metadata = AuthorizationServerMetadata.parse(node.toString());
            if (metadata.getTokenEndpointURI() == null) {
                throw new OAuthException("the authorization server metadata at " + where + " names no token endpoint");
            }
            return metadata;
        } catch (ParseException e) {
            throw new OAuthException("the authorization server metadata at " + where + " is not valid: "
                    + e.getMessage());
        }
    }

    private static URI uri(String text, String what) {
        try {
            URI uri = URI.create(text);
            if (!uri.isAbsolute() || !("https".equals(uri.getScheme()) || "http".equals(uri.getScheme()))) {
                throw new OAuthException(what + " is not an absolute http or https URL: " + text);
            }
            return uri;
        } catch (IllegalArgumentException e) {
            throw new OAuthException(what + " is not a URL: " + text);
        }
    }

    /** RFC 9728 section 3.3 and RFC 8707: the resource is the server's URL or a prefix of it on the same origin. */
    static boolean covers(URI resource, URI server) {
        if (!origin(resource).equals(origin(server)) || resource.getRawQuery() != null) {
            return false;
        }
        String prefix = trimmedPath(resource);
        String path = trimmedPath(server);
        return path.equals(prefix) || path.startsWith(prefix + "/");
    }

    static URI origin(URI uri) {
        return URI.create(uri.getScheme() + "://" + uri.getRawAuthority() + "/");
    }

    /** The path without a trailing slash, "" for the root. */
    static String trimmedPath(URI uri) {
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        while (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        return path;
    }
}
