package io.countersign.tools.mcp;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The events of a server-sent event stream, as the HTML standard parses them: {@code data} lines joined,
 * {@code id} and {@code retry} kept in a {@link Cursor} that outlives the stream, so a resumed stream continues from
 * them. Only events of the default type ("message") with data are handed on; a priming event (an id with empty
 * data) only moves the cursor.
 */
final class SseReader implements AutoCloseable {
    /** Where a stream got to: the last event id seen and the reconnection time the server asked for. */
    static final class Cursor {
        private volatile String lastId;
        private volatile Duration retry;

        Cursor(Duration retry) {
            this.retry = retry;
        }

        String lastId() {
            return lastId;
        }

        Duration retry() {
            return retry;
        }
    }

    private final BufferedReader lines;
    private final Cursor cursor;

    SseReader(InputStream body, Cursor cursor) {
        this.lines = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
        this.cursor = cursor;
    }

    /** The data of the next message event, or null at the end of the stream. */
    String next() throws IOException {
        StringBuilder data = null;
        String type = "";
        String line;
        while ((line = lines.readLine()) != null) {
            if (line.isEmpty()) {
                if (data != null && !data.toString().isBlank() && (type.isEmpty() || type.equals("message"))) {
                    return data.toString();
                }
                data = null;
                type = "";
                continue;
            }
            if (line.startsWith(":")) {
                continue; // a comment, often a keep-alive
            }
            int colon = line.indexOf(':');
            String field = colon < 0 ? line : line.substring(0, colon);
            String value = colon < 0 ? "" : line.substring(colon + 1);
            if (value.startsWith(" ")) {
                value = value.substring(1);
            }
            switch (field) {
                case "data" -> {
                    if (data == null) {
                        data = new StringBuilder(value);
                    } else {
                        data.append('\n').append(value);
                    }
                    if (data.length() > StdioProcessTransport.MAX_MESSAGE_CHARS) {
                        throw new IOException("an event longer than " + StdioProcessTransport.MAX_MESSAGE_CHARS
                                + " characters");
                    }
                }
                case "event" -> type = value;
                case "id" -> {
                    if (!value.contains("\0")) {
                        cursor.lastId = value.isEmpty() ? null : value;
                    }
                }
                case "retry" -> {
                    if (!value.isEmpty() && value.chars().allMatch(Character::isDigit) && value.length() < 10) {
                        cursor.retry = Duration.ofMillis(Long.parseLong(value));
                    }
                }
                default -> {
                    // other fields are ignored, as the standard says
                }
            }
        }
        return null;
    }

    @Override
    public void close() throws IOException {
        lines.close();
    }
}
