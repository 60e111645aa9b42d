package io.countersign.tools.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import io.countersign.engine.tool.ToolResult;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the model reads of an MCP tool result. */
class McpToolResultsTest {

    private static ToolResult convert(McpSchema.CallToolResult result) {
        return McpToolResults.toToolResult("files", "read", result);
    }

    @Test
    void textItemsAreJoinedLineByLine() {
        ToolResult result = convert(McpSchema.CallToolResult.builder().addTextContent("first")
                .addTextContent("second").build());

        assertThat(result.content()).isEqualTo("first\nsecond");
        assertThat(result.failed()).isFalse();
    }

    @Test
    void aSuccessKeepsTheServersOwnResultBesideTheSummary() {
        String data = Base64.getEncoder().encodeToString(new byte[1234]);
        ToolResult result = convert(McpSchema.CallToolResult.builder().addTextContent("a chart")
                .addContent(McpSchema.ImageContent.builder(data, "image/png").build())
                .structuredContent(Map.of("points", 3)).build());

        assertThat(result.serverResult().path("content").get(1).path("type").asText()).isEqualTo("image");
        assertThat(result.serverResult().path("content").get(1).path("data").asText()).isEqualTo(data);
        assertThat(result.serverResult().path("structuredContent").path("points").asInt()).isEqualTo(3);
    }

    @Test
    void aFailureKeepsNoServerResult() {
        ToolResult result = convert(McpSchema.CallToolResult.builder().addTextContent("no such file")
                .isError(true).build());

        assertThat(result.serverResult()).isNull();
    }

    @Test
    void anImageIsSummarisedWithItsTypeAndSize() {
        String data = Base64.getEncoder().encodeToString(new byte[1234]);
        ToolResult result = convert(McpSchema.CallToolResult.builder()
                .addContent(McpSchema.ImageContent.builder(data, "image/png").build()).build());

        assertThat(result.content()).isEqualTo("[image: image/png, 1234 bytes]");
    }

    @Test
    void anEmbeddedTextResourceKeepsItsText() {
        ToolResult result = convert(McpSchema.CallToolResult.builder().addContent(McpSchema.EmbeddedResource.builder(
                McpSchema.TextResourceContents.builder("file:///notes.txt", "ship it").mimeType("text/plain").build())
                .build()).build());

        assertThat(result.content()).isEqualTo("[resource: file:///notes.txt]\nship it");
    }

    @Test
    void anErrorResultIsAFailureWithTheServersText() {
        ToolResult result = convert(McpSchema.CallToolResult.builder().addTextContent("no such file")
                .isError(true).build());

        assertThat(result).isEqualTo(ToolResult.failure("no such file"));
        assertThat(result.failed()).isTrue();
    }

    @Test
    void anErrorResultWithoutTextSaysWhichToolFailed() {
        ToolResult result = convert(McpSchema.CallToolResult.builder().content(List.of()).isError(true).build());

        assertThat(result.content()).isEqualTo("Error: server \"files\" reported that \"read\" failed, without"
                + " saying why");
    }

    @Test
    void structuredContentIsShownWhenThereIsNoOtherContent() {
        ToolResult result = convert(McpSchema.CallToolResult.builder().content(List.of())
                .structuredContent(Map.of("temperature", 21)).build());

        assertThat(result.content()).isEqualTo("{\"temperature\":21}");
    }
}
