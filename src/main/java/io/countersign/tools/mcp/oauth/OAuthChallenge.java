package io.countersign.tools.mcp.oauth;

import com.nimbusds.oauth2.sdk.ParseException;
import com.nimbusds.oauth2.sdk.Scope;
import com.nimbusds.oauth2.sdk.token.BearerTokenError;
import java.net.URI;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a server said when it refused a request for want of a token (HTTP 401) or of scope (HTTP 403): the
 * {@code WWW-Authenticate} header's Bearer challenge (RFC 6750), with the {@code resource_metadata} parameter of
 * RFC 9728 that points at the server's protected-resource metadata.
 *
 * @param status           the HTTP status, 401 or 403
 * @param error            the challenge's {@code error} code, such as {@code insufficient_scope}; empty when it gave none
 * @param scopes           the scopes the server asks for; empty when it named none
 * @param resourceMetadata where the protected-resource metadata is, when the challenge says
 */
public record OAuthChallenge(int status, Optional<String> error, Set<String> scopes, Optional<URI> resourceMetadata) {
    /** RFC 9728 section 5.1: an auth-param of the Bearer challenge; Nimbus reads the RFC 6750 ones. */
    private static final Pattern RESOURCE_METADATA = Pattern.compile("resource_metadata\\s*=\\s*\"([^\"]*)\"",
            Pattern.CASE_INSENSITIVE);

    public OAuthChallenge {
        scopes = Set.copyOf(new LinkedHashSet<>(scopes));
    }

    /** Reads a refusal; a header that is missing or not a Bearer challenge gives a challenge with nothing in it. */
    public static OAuthChallenge of(int status, Optional<String> header) {
        if (header.isEmpty() || !header.get().stripLeading().regionMatches(true, 0, "Bearer", 0, 6)) {
            return new OAuthChallenge(status, Optional.empty(), Set.of(), Optional.empty());
        }
        String value = header.get();
        Optional<String> error = Optional.empty();
        Set<String> scopes = new LinkedHashSet<>();
        try {
            BearerTokenError parsed = BearerTokenError.parse(value);
            error = Optional.ofNullable(parsed.getCode()).filter(code -> !code.isBlank());
            Scope scope = parsed.getScope();
            if (scope != null) {
                scopes.addAll(scope.toStringList());
            }
        } catch (ParseException e) {
            // a challenge whose error or scope cannot be read still points at the metadata, if it does
        }
        Optional<URI> metadata = Optional.empty();
        Matcher matcher = RESOURCE_METADATA.matcher(value);
        if (matcher.find()) {
            try {
                URI uri = URI.create(matcher.group(1));
                metadata = uri.isAbsolute() ? Optional.of(uri) : Optional.empty();
            } catch (IllegalArgumentException e) {
                metadata = Optional.empty();
            }
        }
        return new OAuthChallenge(status, error, scopes, metadata);
    }

    /** A 403 that asks for more scope: the server accepted the token but wants it to carry more. */
    public boolean insufficientScope() {
        return status == 403 && error.filter("insufficient_scope"::equals).isPresent();
    }
}
