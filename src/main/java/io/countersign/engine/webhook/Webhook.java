package io.countersign.engine.webhook;

import java.net.URI;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * An admin's outgoing webhook: where the events it subscribes to are sent, how they are signed and in which body.
 *
 * @param id        short and stable, for {@code webhooks remove}
 * @param slack     a Slack-compatible text body ({@code {"text": ...}}) instead of a CloudEvent
 */
public record Webhook(String id, URI url, Set<CardEventType> events, SecretReference secret, boolean slack,
                      String createdBy, Instant createdAt) {
    public Webhook {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(secret, "secret");
        Objects.requireNonNull(createdBy, "createdBy");
        Objects.requireNonNull(createdAt, "createdAt");
        if (events == null || events.isEmpty()) {
            throw new IllegalArgumentException("a webhook subscribes to at least one event");
        }
        events = Set.copyOf(EnumSet.copyOf(events));
    }

    /**
     * Checks a webhook's address: an absolute {@code http} or {@code https} URL with a host and no user
     * information (a password in a URL would be stored).
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    public static URI checkedUrl(String url) {
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException("no webhook URL given");
        }
        URI uri;
        try {
            uri = new URI(url.strip());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalArgumentException("the webhook URL is not a valid URL: " + e.getMessage(), e);
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IllegalArgumentException("the webhook URL must start with https:// or http://, got \""
                    + (uri.getScheme() == null ? url.strip() : uri.getScheme() + ":") + "\"");
        }
        if (uri.getHost() == null || uri.getHost().isBlank()) {
            throw new IllegalArgumentException("the webhook URL " + url.strip() + " names no host");
        }
        if (uri.getUserInfo() != null) {
            throw new IllegalArgumentException("the webhook URL must not hold a user name or password: the store"
                    + " would keep it; sign with --secret instead");
        }
        return uri;
    }

    /** Whether this hook is sent events of the type. */
    public boolean subscribes(CardEventType type) {
        return events.contains(type);
    }

    /** The subscribed events in their usual order, such as {@code waiting,decided}. */
    public String eventList() {
        return CardEventType.listOf(EnumSet.copyOf(events));
    }
}
