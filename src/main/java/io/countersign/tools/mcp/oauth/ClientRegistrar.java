package io.countersign.tools.mcp.oauth;

import com.nimbusds.oauth2.sdk.GrantType;
import com.nimbusds.oauth2.sdk.ParseException;
import com.nimbusds.oauth2.sdk.ResponseType;
import com.nimbusds.oauth2.sdk.as.AuthorizationServerMetadata;
import com.nimbusds.oauth2.sdk.auth.ClientAuthenticationMethod;
import com.nimbusds.oauth2.sdk.client.ClientInformation;
import com.nimbusds.oauth2.sdk.client.ClientInformationResponse;
import com.nimbusds.oauth2.sdk.client.ClientMetadata;
import com.nimbusds.oauth2.sdk.client.ClientRegistrationErrorResponse;
import com.nimbusds.oauth2.sdk.client.ClientRegistrationRequest;
import com.nimbusds.oauth2.sdk.client.ClientRegistrationResponse;
import com.nimbusds.oauth2.sdk.http.HTTPRequest;
import com.nimbusds.oauth2.sdk.http.HTTPResponse;
import java.net.URI;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The client Countersign authorizes as with one authorization server: the one registered before with the same
 * issuer, a pre-registered client id, a client ID metadata document's URL where the server supports those, or a
 * new registration (RFC 7591) as a native client with a loopback redirect.
 */
final class ClientRegistrar {
    private final String server;
    private final URI url;
    private final OAuthClientSettings settings;
    private final Function<HTTPRequest, HTTPResponse> send;

    ClientRegistrar(String server, URI url, OAuthClientSettings settings, Function<HTTPRequest, HTTPResponse> send) {
        this.server = server;
        this.url = url;
        this.settings = settings;
        this.send = send;
    }

    /** The client to authorize as: the one already registered with this issuer, or a new one. */
    StoredGrant client(AuthorizationTarget target, URI redirect, StoredGrant current) {
        AuthorizationServerMetadata metadata = target.metadata();
        String issuer = metadata.getIssuer().getValue();
        if (current != null && issuer.equals(current.issuer())) {
            return current;
        }
        if (current != null && current.issuer() == null) { // a client id given before the first sign-in
            return blank(target, current.clientId(), current.clientSecret(), current.authMethod());
        }
        if (settings.clientId().isPresent()) {
            return preRegistered(target);
        }
        if (Boolean.TRUE.equals(metadata.getCustomParameter("client_id_metadata_document_supported"))
                && settings.clientMetadataDocument().isPresent()) {
            return blank(target, settings.clientMetadataDocument().get().toString(), null, "none");
        }
        URI registration = metadata.getRegistrationEndpointURI();
        if (registration == null) {
            throw new OAuthException("the authorization server " + issuer + " of server \"" + server + "\" offers no"
                    + " dynamic client registration: register Countersign there as a native client (redirect URI"
                    + " http://127.0.0.1/callback on any port) and give its client id with --oauth-client-id");
        }
        ClientMetadata wanted = new ClientMetadata();
        wanted.setName(settings.clientName());
        wanted.setRedirectionURI(redirect);
        wanted.setGrantTypes(Set.of(GrantType.AUTHORIZATION_CODE, GrantType.REFRESH_TOKEN));
        wanted.setResponseTypes(Set.of(ResponseType.CODE));
        wanted.setTokenEndpointAuthMethod(preferredMethod(metadata));
        ClientRegistrationResponse response;
        HTTPResponse answer = send.apply(new ClientRegistrationRequest(registration, wanted, null).toHTTPRequest());
        try {
            response = ClientRegistrationResponse.parse(answer);
        } catch (ParseException e) {
            throw new OAuthException("the registration endpoint " + registration + " answered with something that is"
                    + " not a client registration: " + e.getMessage());
        }
        if (!response.indicatesSuccess()) {
            throw new OAuthException("the registration endpoint " + registration + " refused to register Countersign: "
                    + OAuthAuthorizer.describe(((ClientRegistrationErrorResponse) response).getErrorObject(),
                    answer.getStatusCode()));
        }
        ClientInformation information = ((ClientInformationResponse) response).getClientInformation();
        String secret = information.getSecret() == null ? null : information.getSecret().getValue();
        ClientAuthenticationMethod method = information.getMetadata().getTokenEndpointAuthMethod();
        String chosen = method != null ? method.getValue() : secret != null ? secretMethod(metadata).getValue()
                : ClientAuthenticationMethod.NONE.getValue();
        return blank(target, information.getID().getValue(), secret, chosen);
    }

    StoredGrant preRegistered(AuthorizationTarget target) {
        String secret = settings.clientSecret().orElse(null);
        List<ClientAuthenticationMethod> offered = target.metadata().getTokenEndpointAuthMethods();
        String method = settings.signingKey().isPresent() && offered != null
                && offered.contains(ClientAuthenticationMethod.PRIVATE_KEY_JWT)
                ? ClientAuthenticationMethod.PRIVATE_KEY_JWT.getValue()
                : secret == null ? ClientAuthenticationMethod.NONE.getValue() : secretMethod(target.metadata()).getValue();
        return blank(target, settings.clientId().orElseThrow(), secret, method);
    }

    private StoredGrant blank(AuthorizationTarget target, String clientId, String secret, String method) {
        return new StoredGrant(url.toString(), target.metadata().getIssuer().getValue(),
                target.metadata().getTokenEndpointURI().toString(), target.resource().toString(), clientId, secret,
                method, null, null, null, List.of());
    }

    /** A public client where the server allows it (a native app keeps no secret), else a secret as it prefers. */
    private static ClientAuthenticationMethod preferredMethod(AuthorizationServerMetadata metadata) {
        List<ClientAuthenticationMethod> offered = metadata.getTokenEndpointAuthMethods();
        if (offered == null || offered.contains(ClientAuthenticationMethod.NONE)) {
            return ClientAuthenticationMethod.NONE;
        }
        return secretMethod(metadata);
    }

    static ClientAuthenticationMethod secretMethod(AuthorizationServerMetadata metadata) {
        List<ClientAuthenticationMethod> offered = metadata.getTokenEndpointAuthMethods();
        return offered != null && !offered.contains(ClientAuthenticationMethod.CLIENT_SECRET_BASIC)
                && offered.contains(ClientAuthenticationMethod.CLIENT_SECRET_POST)
                ? ClientAuthenticationMethod.CLIENT_SECRET_POST : ClientAuthenticationMethod.CLIENT_SECRET_BASIC;
    }
}
