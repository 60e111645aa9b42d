package io.countersign.webhook;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The signature of a webhook's body: HMAC-SHA256 over the exact bytes sent, keyed with the hook's secret (its UTF-8
 * bytes), in lower-case hex, sent as {@code Countersign-Signature: sha256=<hex>}.
 */
final class WebhookSignature {
    static final String HEADER = "Countersign-Signature";
    private static final String PREFIX = "sha256=";

    private WebhookSignature() {
    }

    static String header(String secret, byte[] body) {
        return PREFIX + hex(secret, body);
    }

    static String hex(String secret, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(body));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HMAC-SHA256 is not available in this Java runtime", e);
        }
    }
}
