package io.countersign.engine;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** A peer's {@code Retry-After} header: a number of seconds or an HTTP date (RFC 9110, section 10.2.3). */
public final class RetryAfter {
    /** The preferred HTTP date, then the two obsolete forms a recipient must still read. */
    private static final List<DateTimeFormatter> HTTP_DATES = List.of(DateTimeFormatter.RFC_1123_DATE_TIME,
            DateTimeFormatter.ofPattern("EEEE, dd-MMM-yy HH:mm:ss zzz", Locale.US),
            DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy", Locale.US).withZone(ZoneOffset.UTC));

    private RetryAfter() {
    }

    /**
     * The wait the peer asks for; empty when the header is absent or cannot be read, so the caller's backoff holds.
     * A date is measured from the peer's own {@code Date} header when it sends one, so that clock skew does not
     * matter, else from {@code now}; a date in the past asks for no wait.
     *
     * @param value      the {@code Retry-After} header, or null
     * @param serverDate the peer's {@code Date} header, or null
     */
    public static Optional<Duration> parse(String value, String serverDate, Instant now) {
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        String trimmed = value.trim();
        if (trimmed.matches("\\d{1,12}")) {
            return Optional.of(Duration.ofSeconds(Long.parseLong(trimmed)));
        }
        Optional<Instant> at = httpDate(trimmed);
        if (at.isEmpty()) {
            return Optional.empty();
        }
        Instant from = serverDate == null ? now : httpDate(serverDate.trim()).orElse(now);
        Duration wait = Duration.between(from, at.get());
        return Optional.of(wait.isNegative() ? Duration.ZERO : wait);
    }

    private static Optional<Instant> httpDate(String text) {
        for (DateTimeFormatter format : HTTP_DATES) {
            try {
                return Optional.of(ZonedDateTime.parse(text, format).toInstant());
            } catch (DateTimeParseException e) {
                // not this form; the next one may read it
            }
        }
        return Optional.empty();
    }
}
