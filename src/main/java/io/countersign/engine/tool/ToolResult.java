package io.countersign.engine.tool;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * What a tool gives back to the model. Content is capped at {@value #MAX_BYTES} UTF-8 bytes; longer
 * content is cut at a character boundary and says so.
 */
public record ToolResult(String content, boolean failed) {
    public static final int MAX_BYTES = 50_000;

    public ToolResult {
        Objects.requireNonNull(content, "content");
        content = capped(content);
    }

    public static ToolResult ok(String content) {
        return new ToolResult(content, false);
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
