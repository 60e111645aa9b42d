package io.countersign.service;

import io.countersign.engine.event.EventCursor;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;

/**
 * An event page's cursor as a short opaque token that a script passes back ({@code countersign events --after
 * TOKEN}): the event's time in nanoseconds and its id, base64url-encoded.
 */
public final class EventCursors {
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private EventCursors() {
    }

    public static String encode(EventCursor cursor) {
        long nanos = Math.addExact(Math.multiplyExact(cursor.time().getEpochSecond(), NANOS_PER_SECOND),
                cursor.time().getNano());
        return Base64.getUrlEncoder().withoutPadding().encodeToString((nanos + ":" + cursor.id())
                .getBytes(StandardCharsets.UTF_8));
    }

    /** @throws IllegalArgumentException for a token that {@link #encode} did not make */
    public static EventCursor decode(String token) {
        String text;
        try {
            text = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw notACursor(token);
        }
        int separator = text.indexOf(':');
        if (separator < 1 || separator == text.length() - 1) {
            throw notACursor(token);
        }
        try {
            long nanos = Long.parseLong(text.substring(0, separator));
            return new EventCursor(Instant.ofEpochSecond(Math.floorDiv(nanos, NANOS_PER_SECOND),
                    Math.floorMod(nanos, NANOS_PER_SECOND)), text.substring(separator + 1));
        } catch (NumberFormatException e) {
            throw notACursor(token);
        }
    }

    private static IllegalArgumentException notACursor(String token) {
        return new IllegalArgumentException("\"" + token + "\" is not an event cursor; pass the \"next\" value"
                + " that the previous page printed");
    }
}
