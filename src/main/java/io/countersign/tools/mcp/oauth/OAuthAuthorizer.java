package io.countersign.tools.mcp.oauth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.oauth2.sdk.AccessTokenResponse;
import com.nimbusds.oauth2.sdk.AuthorizationCode;
import com.nimbusds.oauth2.sdk.AuthorizationCodeGrant;
import com.nimbusds.oauth2.sdk.AuthorizationGrant;
import com.nimbusds.oauth2.sdk.AuthorizationRequest;
import com.nimbusds.oauth2.sdk.AuthorizationResponse;
import com.nimbusds.oauth2.sdk.ClientCredentialsGrant;
import com.nimbusds.oauth2.sdk.ErrorObject;
import com.nimbusds.oauth2.sdk.GrantType;
import com.nimbusds.oauth2.sdk.ParseException;
import com.nimbusds.oauth2.sdk.RefreshTokenGrant;
import com.nimbusds.oauth2.sdk.ResponseType;
import com.nimbusds.oauth2.sdk.Scope;
import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.TokenResponse;
import com.nimbusds.oauth2.sdk.as.AuthorizationServerMetadata;
import com.nimbusds.oauth2.sdk.auth.ClientAuthentication;
import com.nimbusds.oauth2.sdk.auth.ClientAuthenticationMethod;
import com.nimbusds.oauth2.sdk.auth.ClientSecretBasic;
import com.nimbusds.oauth2.sdk.auth.ClientSecretPost;
import com.nimbusds.oauth2.sdk.auth.JWTAuthenticationClaimsSet;
import com.nimbusds.oauth2.sdk.auth.PrivateKeyJWT;
import com.nimbusds.oauth2.sdk.auth.Secret;
import com.nimbusds.oauth2.sdk.client.ClientInformation;
import com.nimbusds.oauth2.sdk.client.ClientInformationResponse;
import com.nimbusds.oauth2.sdk.client.ClientMetadata;
import com.nimbusds.oauth2.sdk.client.ClientRegistrationErrorResponse;
import com.nimbusds.oauth2.sdk.client.ClientRegistrationRequest;
import com.nimbusds.oauth2.sdk.client.ClientRegistrationResponse;
import com.nimbusds.oauth2.sdk.http.HTTPRequest;
import com.nimbusds.oauth2.sdk.http.HTTPResponse;
import com.nimbusds.oauth2.sdk.id.Audience;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.id.State;
import com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import com.nimbusds.oauth2.sdk.token.AccessToken;
import com.nimbusds.oauth2.sdk.token.RefreshToken;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The MCP authorization flow for one Streamable HTTP server (MCP specification 2025-11-25, "Authorization"), on the
 * Nimbus OAuth 2.0 SDK: discovery ({@link AuthorizationDiscovery}), a client (pre-registered, a client ID metadata
 * document, or dynamic registration, RFC 7591), the authorization code grant with PKCE S256 and the
 * {@code resource} parameter (RFC 8707) through the browser and a loopback redirect, token refresh, and scope
 * step-up on {@code 403 insufficient_scope}. An authorization server that offers only the client credentials
 * grant is used with the pre-registered client's secret. The grant lives in a {@link TokenVault}, never in the store.
 *
 * <p>The transport calls it on its own threads; one sign-in runs at a time.
 */
public final class OAuthAuthorizer {
    /** Step-ups for one request before its 403 is reported: the server may never be satisfied. */
    public static final int MAX_STEP_UPS = 2;
    /** A token this close to its end is refreshed before it is sent. */
    private static final long EXPIRY_MARGIN_SECONDS = 30;

    /** Hears when a sign-in waits for a person, so that deadlines can stop meanwhile. */
    public interface SignInListener {
        void started();

        void ended();
    }

    /** One HTTP exchange with the MCP server, sent with the given token (or none). */
    @FunctionalInterface
    public interface Exchange<T> {
        HttpResponse<T> send(Optional<String> token) throws IOException, InterruptedException;
    }

    private final String server;
    private final URI url;
    private final OAuthClientSettings settings;
    private final TokenVault vault;
    private final SignInBrowser browser;
    private final Duration timeout;
    private final AuthorizationDiscovery discovery;
    private final ClientRegistrar registrar;
    private final Clock clock = Clock.systemUTC();
    private volatile SignInListener listener = new SignInListener() {
        @Override
        public void started() {
        }

        @Override
        public void ended() {
        }
    };
    private StoredGrant grant;
    private boolean loaded;

    public OAuthAuthorizer(String server, URI url, OAuthClientSettings settings, TokenVault vault,
                           SignInBrowser browser, Duration timeout) {
        this.server = Objects.requireNonNull(server, "server");
        this.url = Objects.requireNonNull(url, "url");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.vault = Objects.requireNonNull(vault, "vault");
        this.browser = Objects.requireNonNull(browser, "browser");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.registrar = new ClientRegistrar(server, url, settings, this::send);
        this.discovery = new AuthorizationDiscovery(HttpClient.newBuilder().connectTimeout(timeout).build(), timeout);
    }

    public void listener(SignInListener value) {
        this.listener = Objects.requireNonNull(value, "listener");
    }

    /** Where the grant is kept, in words for a person. */
    public String vaultDescription() {
        return vault.description();
    }

    /** Whether there is a token to send: a sign-in happened or a stored grant was found. */
    public synchronized boolean hasGrant() {
        StoredGrant current = current();
        return current != null && current.accessToken() != null;
    }

    /** The access token to send now, refreshed first when it is about to expire; empty before any sign-in. */
    public synchronized Optional<String> bearer() {
        StoredGrant current = current();
        if (current == null || current.accessToken() == null) {
            return Optional.empty();
        }
        Optional<String> usable = current.usableToken(clock.instant(), EXPIRY_MARGIN_SECONDS);
        if (usable.isPresent()) {
            return usable;
        }
        if (current.refreshToken() != null) {
            // refreshed, or dropped when the server no longer honours the refresh token: a 401 then signs in
            return refresh(current) ? Optional.ofNullable(grant.accessToken()) : Optional.empty();
        }
        return Optional.of(current.accessToken()); // no refresh token: the server decides, a 401 signs in again
    }

    /**
     * The server refused {@code sent} (or no token) with 401: refreshes the grant when it can, else signs in with
     * the scopes the challenge names, or else all those the resource lists, or none.
     */
    public synchronized void unauthorized(OAuthChallenge challenge, Optional<String> sent) {
        StoredGrant current = current();
        if (current != null && current.accessToken() != null && sent.isPresent()
                && !sent.get().equals(current.accessToken())) {
            return; // another request already got a new token: try that one
        }
        if (current != null && current.refreshToken() != null && sent.isPresent() && refresh(current)) {
            return;
        }
        signIn(challenge, null);
    }

    /**
     * The server wants more scope (403 {@code insufficient_scope}): signs in again asking for what was asked
     * before and what the challenge names. False when that would ask for nothing new, so retrying is pointless.
     */
    public synchronized boolean stepUp(OAuthChallenge challenge) {
        StoredGrant current = current();
        Set<String> asked = current == null ? Set.of() : new LinkedHashSet<>(current.scopes());
        Set<String> wanted = new LinkedHashSet<>(asked);
        wanted.addAll(challenge.scopes());
        if (wanted.equals(asked)) {
            return false;
        }
        signIn(challenge, wanted);
        return true;
    }

    /**
     * Sends an exchange with the grant's token. A 401 signs in (or refreshes) once and sends again; a 403
     * {@code insufficient_scope} asks for the larger scope, up to {@link #MAX_STEP_UPS} times. A refused request was
     * not carried out, so sending it again is safe. {@code discard} closes a refused answer's body.
     *
     * @throws OAuthException when the sign-in fails or the server wants scope that was already asked for
     */
    public <T> HttpResponse<T> exchange(Exchange<T> exchange, Consumer<HttpResponse<T>> discard)
            throws IOException, InterruptedException {
        boolean signedIn = false;
        int stepUps = 0;
        while (true) {
            Optional<String> token = bearer();
            HttpResponse<T> response = exchange.send(token);
            int status = response.statusCode();
            if (status != 401 && status != 403) {
                return response;
            }
            OAuthChallenge challenge = OAuthChallenge.of(status, response.headers().firstValue("WWW-Authenticate"));
            if (status == 401 && !signedIn) {
                discard.accept(response);
                unauthorized(challenge, token);
                signedIn = true;
            } else if (challenge.insufficientScope() && stepUps < MAX_STEP_UPS) {
                discard.accept(response);
                if (!stepUp(challenge)) {
                    throw new OAuthException("server \"" + server + "\" refused the token for want of scope ("
                            + String.join(" ", challenge.scopes()) + "), which the sign-in already asked for");
                }
                stepUps++;
            } else {
                return response;
            }
        }
    }

    private StoredGrant current() {
        if (!loaded) {
            loaded = true;
            grant = vault.load(server).filter(stored -> stored.server().equals(url.toString())).orElse(null);
        }
        return grant;
    }

    private void signIn(OAuthChallenge challenge, Set<String> explicit) {
        AuthorizationTarget target = discovery.discover(url, challenge);
        Set<String> scopes = new LinkedHashSet<>(explicit != null ? explicit
                : !challenge.scopes().isEmpty() ? challenge.scopes() : target.scopesSupported());
        AuthorizationServerMetadata metadata = target.metadata();
        List<GrantType> grants = metadata.getGrantTypes();
        boolean codeFlow = grants == null || grants.contains(GrantType.AUTHORIZATION_CODE);
        if (!codeFlow) {
            if (grants.contains(GrantType.CLIENT_CREDENTIALS) && settings.clientId().isPresent()
                    && (settings.clientSecret().isPresent() || settings.signingKey().isPresent())) {
                StoredGrant client = registrar.preRegistered(target);
                token(client, new ClientCredentialsGrant(), target, scopes);
                return;
            }
            throw new OAuthException("the authorization server " + metadata.getIssuer() + " of server \"" + server
                    + "\" offers neither the authorization code grant nor, for a client with a secret or a key, the"
                    + " client credentials grant (it offers " + grants + ")");
        }
        if (metadata.getAuthorizationEndpointURI() == null) {
            throw new OAuthException("the authorization server " + metadata.getIssuer() + " of server \"" + server
                    + "\" names no authorization endpoint");
        }
        try (LoopbackCallback callback = LoopbackCallback.start()) {
            StoredGrant client = registrar.client(target, callback.redirectUri(), current());
            CodeVerifier verifier = new CodeVerifier();
            State state = new State();
            AuthorizationRequest.Builder request = new AuthorizationRequest.Builder(ResponseType.CODE,
                    new ClientID(client.clientId())).endpointURI(metadata.getAuthorizationEndpointURI())
                    .redirectionURI(callback.redirectUri()).state(state)
                    .codeChallenge(verifier, CodeChallengeMethod.S256).resource(target.resource());
            if (!scopes.isEmpty()) {
                request.scope(new Scope(scopes.toArray(String[]::new)));
            }
            URI back;
            listener.started();
            try {
                try {
                    browser.open(request.build().toURI());
                } catch (RuntimeException e) {
                    throw new OAuthException("the sign-in page could not be opened: " + e.getMessage());
                }
                back = callback.await(settings.signInTimeout());
            } finally {
                listener.ended();
            }
            AuthorizationCode code = code(back, state);
            token(client, new AuthorizationCodeGrant(code, callback.redirectUri(), verifier), target, scopes);
        }
    }

    private AuthorizationCode code(URI back, State state) {
        AuthorizationResponse response;
        try {
            response = AuthorizationResponse.parse(back);
        } catch (ParseException e) {
            throw new OAuthException("the authorization server's redirect carries neither a code nor an error");
        }
        if (!state.equals(response.getState())) {
            throw new OAuthException("the authorization server's redirect does not carry the state this sign-in sent;"
                    + " it was not used");
        }
        if (!response.indicatesSuccess()) {
            throw new OAuthException("the sign-in was refused: " + describe(response.toErrorResponse().getErrorObject(), 0));
        }
        return response.toSuccessResponse().getAuthorizationCode();
    }

    private boolean refresh(StoredGrant current) {
        try {
            token(current, new RefreshTokenGrant(new RefreshToken(current.refreshToken())), null,
                    new LinkedHashSet<>(current.scopes()));
            return true;
        } catch (OAuthException e) {
            // a refresh token the server no longer honours: the grant's tokens are dropped, a sign-in follows
            grant = current.withTokens(null, null, null, current.scopes());
            vault.save(server, grant);
            return false;
        }
    }

    private void token(StoredGrant client, AuthorizationGrant authorization, AuthorizationTarget target,
                       Set<String> scopes) {
        URI endpoint = URI.create(client.tokenEndpoint());
        ClientID id = new ClientID(client.clientId());
        ClientAuthentication authentication = switch (client.authMethod()) {
            case "client_secret_basic" -> new ClientSecretBasic(id, new Secret(client.clientSecret()));
            case "client_secret_post" -> new ClientSecretPost(id, new Secret(client.clientSecret()));
            case "private_key_jwt" -> signed(client, id);
            default -> null;
        };
        TokenRequest.Builder request = authentication != null
                ? new TokenRequest.Builder(endpoint, authentication, authorization)
                : new TokenRequest.Builder(endpoint, id, authorization);
        request.resource(URI.create(client.resource()));
        if (authorization instanceof ClientCredentialsGrant && !scopes.isEmpty()) {
            request.scope(new Scope(scopes.toArray(String[]::new)));
        }
        TokenResponse response;
        HTTPResponse answer = send(request.build().toHTTPRequest());
        try {
            response = TokenResponse.parse(answer);
        } catch (ParseException e) {
            throw new OAuthException("the token endpoint " + endpoint + " answered with something that is not a token"
                    + " response: " + e.getMessage());
        }
        if (!response.indicatesSuccess()) {
            throw new OAuthException("the token endpoint " + endpoint + " refused: "
                    + describe(response.toErrorResponse().getErrorObject(), answer.getStatusCode()));
        }
        AccessTokenResponse tokens = response.toSuccessResponse();
        AccessToken access = tokens.getTokens().getAccessToken();
        RefreshToken refresh = tokens.getTokens().getRefreshToken();
        Long expires = access.getLifetime() > 0 ? clock.instant().getEpochSecond() + access.getLifetime() : null;
        grant = client.withTokens(access.getValue(), refresh != null ? refresh.getValue() : client.refreshToken(),
                expires, List.copyOf(scopes));
        vault.save(server, grant);
    }

    /** RFC 7523 client authentication: a JWT for the authorization server (its issuer as audience), signed. */
    private ClientAuthentication signed(StoredGrant client, ClientID id) {
        OAuthClientSettings.SigningKey key = settings.signingKey().orElseThrow(() -> new OAuthException("server \""
                + server + "\" wants private_key_jwt, but no signing key is configured"));
        try {
            return new PrivateKeyJWT(new JWTAuthenticationClaimsSet(id, new Audience(client.issuer())),
                    JWSAlgorithm.parse(key.algorithm()), key.key(), null, null);
        } catch (JOSEException e) {
            throw new OAuthException("the client assertion for server \"" + server + "\" could not be signed with "
                    + key.algorithm() + ": " + e.getMessage());
        }
    }

    HTTPResponse send(HTTPRequest request) {
        request.setConnectTimeout((int) timeout.toMillis());
        request.setReadTimeout((int) timeout.toMillis());
        try {
            return request.send();
        } catch (IOException e) {
            throw new OAuthException(request.getURL() + " could not be reached (" + e.getClass().getSimpleName() + ")");
        }
    }

    static String describe(ErrorObject error, int status) {
        if (error == null || error.getCode() == null && error.getDescription() == null) {
            return status == 0 ? "no reason given" : "HTTP " + status;
        }
        String code = error.getCode() == null ? "HTTP " + status : error.getCode();
        String text = error.getDescription() == null ? "" : " (" + error.getDescription()
                .replaceAll("[\\s\\p{Cntrl}]+", " ").strip() + ")";
        return code + text;
    }
}
