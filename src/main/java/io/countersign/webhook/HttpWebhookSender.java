package io.countersign.webhook;

import io.countersign.engine.RetryAfter;
import io.countersign.engine.port.WebhookSender;
import io.countersign.engine.webhook.CardEvent;
import io.countersign.engine.webhook.Delivery;
import io.countersign.engine.webhook.SendResult;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/**
 * Sends a card event to its webhook over HTTP: one POST, a CloudEvent in structured mode (or a Slack-compatible
 * text), signed with HMAC-SHA256 over the body ({@link WebhookSignature}), with the event's id in
 * {@code Countersign-Event-Id} too. Redirects are not followed: a hook's address is the admin's, not the receiver's
 * to move. Any answer but 2xx is a failure the outbox retries, with the receiver's {@code Retry-After}.
 */
public final class HttpWebhookSender implements WebhookSender {
    /** Each attempt's bound, connecting and answering together; well inside the outbox's hold of a claim. */
    public static final Duration CALL_TIMEOUT = Duration.ofSeconds(15);
    static final String EVENT_ID_HEADER = "Countersign-Event-Id";
    static final String EVENT_TYPE_HEADER = "Countersign-Event-Type";

    private final Supplier<OkHttpClient> http;
    private final WebhookSecrets secrets;
    private volatile OkHttpClient client;

    /**
     * @param http        the process's shared client, made when first needed
     * @param environment the process's environment variables, for {@code env:NAME} secrets
     */
    public HttpWebhookSender(Supplier<OkHttpClient> http, UnaryOperator<String> environment) {
        this.http = http;
        this.secrets = new WebhookSecrets(environment);
    }

    @Override
    public SendResult send(Delivery delivery) {
        CardEvent event = delivery.event();
        String secret;
        try {
            secret = secrets.read(delivery.hook().secret());
        } catch (IllegalStateException e) {
            return new SendResult.Failed(null, e.getMessage(), Optional.empty());
        }
        boolean slack = delivery.hook().slack();
        byte[] body = slack ? SlackBody.of(event) : CloudEventBody.of(event);
        Request request = new Request.Builder()
                .url(delivery.hook().url().toString())
                .header("User-Agent", "Countersign-Webhooks")
                .header(WebhookSignature.HEADER, WebhookSignature.header(secret, body))
                .header(EVENT_ID_HEADER, event.id())
                .header(EVENT_TYPE_HEADER, event.type().cloudEventType())
                .post(RequestBody.create(body, MediaType.get(slack ? SlackBody.CONTENT_TYPE
                        : CloudEventBody.CONTENT_TYPE)))
                .build();
        try (Response response = client().newCall(request).execute()) {
            int status = response.code();
            if (status >= 200 && status < 300) {
                return new SendResult.Delivered(status);
            }
            String reason = status >= 300 && status < 400 ? "the receiver answered " + status
                    + " (a redirect, which webhooks do not follow; give the hook its final address)"
                    : "the receiver answered " + status;
            return new SendResult.Failed(status, reason, RetryAfter.parse(response.header("Retry-After"),
                    response.header("Date"), Instant.now()));
        } catch (IOException e) {
            return new SendResult.Failed(null, "could not reach " + delivery.hook().url().getHost() + ": "
                    + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()), Optional.empty());
        }
    }

    private OkHttpClient client() {
        OkHttpClient made = client;
        if (made == null) {
            made = http.get().newBuilder().callTimeout(CALL_TIMEOUT).followRedirects(false)
                    .followSslRedirects(false).build();
            client = made;
        }
        return made;
    }
}
