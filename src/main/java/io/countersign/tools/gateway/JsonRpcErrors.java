package io.countersign.tools.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.countersign.engine.Json;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The errors the gateway sends a host, and the one place that keeps them clean: a JSON-RPC error object whose
 * message is one sentence naming the cause, never an exception's class, a stack frame or the JDK version. The SDK
 * writes some of its own errors with whatever a Java exception said; those pass through {@link #clean} on the way
 * out.
 */
final class JsonRpcErrors {
    /** The session an HTTP request names is not open: JSON-RPC's range for a server's own errors. */
    static final int SESSION_NOT_FOUND = -32001;

    /** A Java class name ({@code io.modelcontextprotocol.spec.McpError}, {@code java.io.IOException}) or frame. */
    private static final Pattern INTERNALS = Pattern.compile(
            "[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)+\\.[A-Z]|Exception|stackTrace|\\bat [\\w.$]+\\(");
    /** The SDK answers every unknown tool with this name, and puts the real one in the error's data. */
    private static final String SDK_UNKNOWN_TOOL = "Unknown tool: invalid_tool_name";
    private static final Pattern SDK_TOOL_NOT_FOUND = Pattern.compile("Tool not found: (.+)");
    private static final int LONGEST_MESSAGE = 300;

    private JsonRpcErrors() {
    }

    /** {@code {"jsonrpc":"2.0","id":ID,"error":{"code":CODE,"message":MESSAGE}}}, the id null when not known. */
    static ObjectNode error(JsonNode id, int code, String message) {
        ObjectNode error = Json.mapper().createObjectNode().put("jsonrpc", McpSchema.JSONRPC_VERSION);
        error.set("id", id == null || id.isMissingNode() ? NullNode.getInstance() : id);
        error.putObject("error").put("code", code).put("message", clean(code, message));
        return error;
    }

    /**
     * The message as a host may read it: its first line, at most {@value #LONGEST_MESSAGE} characters, or, when it
     * carries anything of the process's insides, the plain meaning of its code.
     */
    static String clean(int code, String message) {
        if (message == null || message.isBlank() || INTERNALS.matcher(message).find()) {
            return meaning(code);
        }
        String line = message.strip().lines().findFirst().orElse("");
        return line.length() > LONGEST_MESSAGE ? line.substring(0, LONGEST_MESSAGE) + "…" : line;
    }

    /**
     * A message on its way to the host, with a clean error: an unknown tool named as the host called it (the SDK
     * names none), any other message cleaned, its data dropped where it carries the process's insides. Every other
     * message is returned as it is.
     */
    static McpSchema.JSONRPCMessage clean(McpSchema.JSONRPCMessage message) {
        if (!(message instanceof McpSchema.JSONRPCResponse response) || response.error() == null) {
            return message;
        }
        McpSchema.JSONRPCResponse.JSONRPCError error = response.error();
        int code = error.code() == null ? McpSchema.ErrorCodes.INTERNAL_ERROR : error.code();
        Object data = error.data();
        String text = error.message();
        Matcher tool = data instanceof String named ? SDK_TOOL_NOT_FOUND.matcher(named) : null;
        if (SDK_UNKNOWN_TOOL.equals(text) && tool != null && tool.matches()) {
            text = "Unknown tool: " + tool.group(1);
            data = null;
        } else if (data != null && INTERNALS.matcher(String.valueOf(data)).find()) {
            data = null;
        }
        return McpSchema.JSONRPCResponse.error(response.id(),
                new McpSchema.JSONRPCResponse.JSONRPCError(code, clean(code, text), data));
    }

    private static String meaning(int code) {
        return switch (code) {
            case McpSchema.ErrorCodes.PARSE_ERROR -> "Parse error: the message is not JSON";
            case McpSchema.ErrorCodes.INVALID_REQUEST -> "Invalid request: the message is not a JSON-RPC request";
            case McpSchema.ErrorCodes.METHOD_NOT_FOUND -> "Method not found";
            case McpSchema.ErrorCodes.INVALID_PARAMS -> "Invalid params";
            default -> "Internal error: the gateway could not handle the request";
        };
    }
}
