package io.countersign.tools.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * An MCP server over stdio that completes the handshake and then misbehaves as its argument says:
 * {@code not-json} answers tools/list with a line that is not JSON, {@code bad-tools} answers it with a "tools"
 * member that is not a list, {@code client-version} lists one tool, {@code version}, whose description is the
 * version the client reported in its handshake.
 */
public final class MisbehavingServer {
    private static final ObjectMapper JSON = new ObjectMapper();

    private MisbehavingServer() {
    }

    public static void main(String[] args) throws IOException {
        String mode = args[0];
        BufferedReader input = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        String clientVersion = "";
        while ((line = input.readLine()) != null) {
            JsonNode message = JSON.readTree(line);
            String method = message.path("method").asText();
            if (method.equals("initialize")) {
                clientVersion = message.path("params").path("clientInfo").path("version").asText();
                ObjectNode result = JSON.createObjectNode()
                        .put("protocolVersion", message.path("params").path("protocolVersion").asText());
                result.putObject("capabilities").putObject("tools");
                result.putObject("serverInfo").put("name", "misbehaving").put("version", "1");
                answer(message, result);
            } else if (method.equals("tools/list") && mode.equals("not-json")) {
                System.out.println("Listening on port 8080 (this is not JSON-RPC)");
                System.out.flush();
            } else if (method.equals("tools/list") && mode.equals("bad-tools")) {
                answer(message, JSON.createObjectNode().put("tools", 42));
            } else if (method.equals("tools/list") && mode.equals("client-version")) {
                ObjectNode tool = JSON.createObjectNode().put("name", "version").put("description", clientVersion);
                tool.putObject("inputSchema").put("type", "object");
                answer(message, JSON.createObjectNode().set("tools", JSON.createArrayNode().add(tool)));
            } else if (message.has("id")) {
                answer(message, JSON.createObjectNode().set("tools", JSON.valueToTree(List.of())));
            }
        }
    }

    private static void answer(JsonNode request, JsonNode result) {
        ObjectNode response = JSON.createObjectNode().put("jsonrpc", "2.0");
        response.set("id", request.get("id"));
        response.set("result", result);
        System.out.println(response);
        System.out.flush();
    }
}
