package io.countersign.tools.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.countersign.engine.Json;
import io.countersign.engine.tool.ToolResult;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns an MCP tool result into what the model reads: text items as they are, other content kinds as a short
 * summary ("[image: image/png, 1234 bytes]"), since the model cannot use the bytes. A success keeps the server's
 * own result beside the text, for a gateway's host.
 */
final class McpToolResults {

    private McpToolResults() {
    }

    static ToolResult toToolResult(String server, String tool, McpSchema.CallToolResult result) {
        String text = render(result);
        if (Boolean.TRUE.equals(result.isError())) {
            return ToolResult.failure(text.isBlank()
                    ? "server \"" + server + "\" reported that \"" + tool + "\" failed, without saying why"
                    : text);
        }
        return ToolResult.ok(text.isBlank() ? "(the tool returned no content)" : text,
                Json.mapper().valueToTree(result));
    }

    static String render(McpSchema.CallToolResult result) {
        List<String> parts = new ArrayList<>();
        if (result.content() != null) {
            for (McpSchema.Content content : result.content()) {
                parts.add(describe(content));
            }
        }
        if (parts.isEmpty() && result.structuredContent() != null) {
            try {
                parts.add(Json.mapper().writeValueAsString(result.structuredContent()));
            } catch (JsonProcessingException e) {
                parts.add("[structured content that could not be shown]");
            }
        }
        return String.join("\n", parts);
    }

    private static String describe(McpSchema.Content content) {
        if (content instanceof McpSchema.TextContent text) {
            return text.text() == null ? "" : text.text();
        }
        if (content instanceof McpSchema.ImageContent image) {
            return "[image: " + image.mimeType() + ", " + decodedSize(image.data()) + " bytes]";
        }
        if (content instanceof McpSchema.AudioContent audio) {
            return "[audio: " + audio.mimeType() + ", " + decodedSize(audio.data()) + " bytes]";
        }
        if (content instanceof McpSchema.EmbeddedResource embedded) {
            McpSchema.ResourceContents resource = embedded.resource();
            if (resource instanceof McpSchema.TextResourceContents text) {
                return "[resource: " + text.uri() + "]\n" + (text.text() == null ? "" : text.text());
            }
            if (resource instanceof McpSchema.BlobResourceContents blob) {
                return "[resource: " + blob.uri() + ", " + blob.mimeType() + ", " + decodedSize(blob.blob())
                        + " bytes]";
            }
            return "[resource]";
        }
        if (content instanceof McpSchema.ResourceLink link) {
            return "[resource link: " + link.uri() + (link.name() == null ? "" : " (" + link.name() + ")") + "]";
        }
        return content == null ? "" : "[" + content.type() + " content]";
    }

    /** The size of base64 data once decoded, without decoding it. */
    static long decodedSize(String base64) {
        if (base64 == null) {
            return 0;
        }
        String data = base64.strip();
        int padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
        return Math.max(0, (long) data.length() * 3 / 4 - padding);
    }
}
