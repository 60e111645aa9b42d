package io.countersign.engine.tool;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * What a tool gives back to the model. Content is capped at {@value #MAX_BYTES} UTF-8 bytes; longer
 * content is cut at a character boundary and says so. A result whose {@code outcomeUnknown} is set says the call
 * may or may not have taken effect, such as a server that went away while it ran: its content is a reason for a
 * person, and the model never reads it.
 *
 * <p>{@code serverResult}, when not null, is the result exactly as a server gave it (an MCP {@code CallToolResult}:
 * content items, {@code structuredContent}), for a caller that can use more than the text, such as the host of a
 * gateway. It lives in memory only: the transcript, the journal and a paused run keep {@code content}.
 */
public record ToolResult(String content, boolean failed, boolean outcomeUnknown, JsonNode serverResult) {
    public static final int MAX_BYTES = 50_000;

    public ToolResult {
        Objects.requireNonNull(content, "content");
        content = capped(content);
    }

    public ToolResult(String content, boolean failed, boolean outcomeUnknown) {
        this(content, failed, outcomeUnknown, null);
    }

    public ToolResult(String content, boolean failed) {
        this(content, failed, false);
    }

    public static ToolResult ok(String content) {
        return new ToolResult(content, false);
    }

    /** A success whose server's own result goes along with the text the model reads. */
    public static ToolResult ok(String content, JsonNode serverResult) {
        return new ToolResult(content, false, false, serverResult);
    }

    /** The call went out and no answer came back: nobody knows whether it took effect; {@code reason} says why. */
    public static ToolResult outcomeUnknown(String reason) {
        return new ToolResult(reason, true, true);
    }

    /** An expected failure the model may read and react to, such as a file that does not exist. */
    public static ToolResult failure(String message) {
        return new ToolResult(message.startsWith("Error:") ? message : "Error: " + message, true);
    }

    private static String capped(String content) {
        byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
        if (bytes.length <= MAX_BYTES) {
            return content;
        }
        String note = "\n[result truncated: " + bytes.length + " bytes, only the first " + MAX_BYTES + " kept]";
        int budget = MAX_BYTES - note.getBytes(StandardCharsets.UTF_8).length;
        int end = 0;
        int used = 0;
        while (end < content.length()) {
            int codePoint = content.codePointAt(end);
            int size = new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8).length;
            if (used + size > budget) {
                break;
            }
            used += size;
            end += Character.charCount(codePoint);
        }
        return content.substring(0, end) + note;
    }
}
